export type {
  InboundDeps,
  InboundMessage,
  InboundResult,
  StatusCallback,
  StatusCallbackDeps,
  StatusCallbackResult,
} from './inbound.js';
export { receiveInbound, receiveStatusCallback } from './inbound.js';
export type {
  CallResult,
  CallStatus,
  MessageRef,
  MessagingProvider,
  PlaceCallRequest,
  SendSmsRequest,
  SmsResult,
  SmsStatus,
} from './provider.js';
export { CALL_STATUSES, isCallStatus, isSmsStatus, SMS_STATUSES } from './provider.js';
export type { StatusActivity } from './provider-activities.js';
export { statusActivity } from './provider-activities.js';
export type { SimulationProviderOptions } from './simulation.provider.js';
export { SimulationProvider } from './simulation.provider.js';
