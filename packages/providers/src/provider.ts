/**
 * The messaging provider interface (docs/operations.md, "Messaging provider"): the playbook worker sends SMS
 * and places calls only through it. The default implementation is the simulation
 * (simulation.provider.ts); a carrier (Twilio, Telnyx, …) plugs in behind the
 * same two calls.
 */

/**
 * The providers this deployment can take webhooks from (intake's
 * /providers/{provider}/… routes): the name a provider gives itself.
 */
export const PROVIDER_NAMES = ['simulation'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * What became of an SMS. `queued`: the carrier accepted it and its fate comes
 * later by status callback; `undeliverable`: the number cannot receive SMS at
 * all; `opted_out`: the carrier refuses to text this recipient, who unsubscribed
 * (Twilio's 21610).
 */
export type SmsStatus = 'queued' | 'delivered' | 'failed' | 'undeliverable' | 'opted_out';
/** What became of a call. `undeliverable`: the number cannot be called at all. */
export type CallStatus = 'queued' | 'answered' | 'voicemail' | 'failed' | 'undeliverable';

export const SMS_STATUSES: readonly SmsStatus[] = [
  'queued',
  'delivered',
  'failed',
  'undeliverable',
  'opted_out',
];
export const CALL_STATUSES: readonly CallStatus[] = [
  'queued',
  'answered',
  'voicemail',
  'failed',
  'undeliverable',
];

/**
 * The carrier refused the request for now (429, 5xx) and sent nothing: the step
 * is tried again after a delay (PROVIDER_RETRY_SCHEDULE), not recorded as sent.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    message: string,
    /** The carrier's Retry-After, when it gave one. */
    readonly retryAfterMs: number | null = null,
    /** Sends tried for this step so far, this one included (the retry schedule's index). */
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/**
 * The carrier refused our credentials (Twilio's 20003): nothing can be sent until
 * an operator fixes the settings, so the worker stops taking steps rather than
 * let every lead burn its steps on a misconfiguration.
 */
export class ProviderCredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderCredentialsError';
  }
}

/** Whom a message is about: kept with the provider's record, never sent to the carrier. */
export interface MessageRef {
  leadId: string;
  enrollmentId?: string | null;
  /** The playbook step (0-based) that sends it. */
  step?: number | null;
}

export interface SendSmsRequest {
  /** E.164. */
  to: string;
  body: string;
  /**
   * The same key twice is one message: a step retried after a crash (sent, but
   * the step's transaction never committed) does not text the lead again.
   */
  idempotencyKey: string;
  ref: MessageRef;
}

export interface PlaceCallRequest {
  to: string;
  /** The call script, when the step has one. */
  script?: string | null;
  idempotencyKey: string;
  ref: MessageRef;
}

/**
 * Why a send is `failed` without anything known to have reached the lead:
 * `provider_unavailable`: the carrier kept answering 429/5xx until the retry
 * schedule ran out; `send_unconfirmed`: a send whose answer was lost and that
 * the carrier does not list (never sent again blindly); `carrier_rejected`: the
 * carrier refused the request for another reason (its error code says which);
 * `no_from_number`: a call with no number to call from.
 */
export type SendFailureReason =
  | 'provider_unavailable'
  | 'send_unconfirmed'
  | 'carrier_rejected'
  | 'no_from_number';

/** A send that did not happen (status `failed`): the step records why. */
export interface SendFailure {
  reason: SendFailureReason;
  /** The carrier's error code of its last answer, when it gave one. */
  errorCode: string | null;
}

/**
 * `heldStatuses`: the carrier reported statuses of the message before the
 * provider recorded its id, and intake held them (docs/operations.md,
 * "Twilio's callbacks"). The caller applies them with applyHeldStatuses, in
 * its own transaction after its own activities: the provider's commit of the
 * id cannot, since the step's transaction holds the lead's lock that
 * recording an activity takes.
 */
export interface SmsResult {
  status: SmsStatus;
  providerMessageId: string;
  /** Set when nothing was sent: no first_message_sent, only message_failed. */
  failure?: SendFailure;
  heldStatuses?: boolean;
}

export interface CallResult {
  status: CallStatus;
  providerMessageId: string;
  /** Set when no call was placed. */
  failure?: SendFailure;
  /** As SmsResult's. */
  heldStatuses?: boolean;
}

/**
 * A messaging provider. Its calls may throw ProviderUnavailableError (try the
 * step again later) or ProviderCredentialsError (stop taking steps); either way
 * nothing was sent.
 */
export interface MessagingProvider {
  readonly name: string;
  sendSms(request: SendSmsRequest): Promise<SmsResult>;
  placeCall(request: PlaceCallRequest): Promise<CallResult>;
}

export function isSmsStatus(value: string): value is SmsStatus {
  return (SMS_STATUSES as readonly string[]).includes(value);
}

export function isCallStatus(value: string): value is CallStatus {
  return (CALL_STATUSES as readonly string[]).includes(value);
}
