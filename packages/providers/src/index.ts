export type {
  CarrierStatus,
  CarrierStatusHoldResult,
  CarrierStatusResult,
  InboundMessage,
  InboundResult,
  ProviderHookDeps,
  StatusCallback,
  StatusCallbackResult,
} from './inbound.js';
export {
  applyHeldStatuses,
  applyStrandedHeldStatuses,
  holdCarrierStatus,
  receiveCarrierStatus,
  receiveInbound,
  receiveStatusCallback,
} from './inbound.js';
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
export type {
  TwilioParams,
  TwilioSignedRequest,
  TwilioStatusReport,
} from './twilio-callbacks.js';
export {
  EMPTY_TWIML,
  isTwilioSignatureValid,
  TWILIO_UNDELIVERABLE_SMS,
  TWILIO_UNSUBSCRIBED,
  twilioParam,
  twilioParams,
  twilioStatusReport,
} from './twilio-callbacks.js';
