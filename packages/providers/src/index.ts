export type {
  InboundMessage,
  InboundResult,
  ProviderHookDeps,
  StatusCallback,
  StatusCallbackResult,
} from './inbound.js';
export { receiveInbound, receiveStatusCallback } from './inbound.js';
export { OPT_OUT_INSTRUCTION, withOptOutInstruction } from './opt-out.js';
export type {
  CallResult,
  CallStatus,
  MessageRef,
  MessagingProvider,
  PlaceCallRequest,
  ProviderName,
  SendFailure,
  SendFailureReason,
  SendSmsRequest,
  SmsResult,
  SmsStatus,
} from './provider.js';
export {
  CALL_STATUSES,
  isCallStatus,
  isSmsStatus,
  PROVIDER_NAMES,
  ProviderCredentialsError,
  ProviderUnavailableError,
  SMS_STATUSES,
} from './provider.js';
export type { StatusActivity } from './provider-activities.js';
export { statusActivity } from './provider-activities.js';
export type { SimulationProviderOptions } from './simulation.provider.js';
export { SimulationProvider } from './simulation.provider.js';
export type { TwilioProviderOptions } from './twilio/twilio.provider.js';
export { TwilioProvider } from './twilio/twilio.provider.js';
