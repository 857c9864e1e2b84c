/**
 * Twilio's callbacks to intake (docs/operations.md, "Twilio's callbacks"): the
 * signature check, what a status callback means in leadhook's statuses, and
 * the empty TwiML an inbound message is answered with. Transport-free: intake
 * reads the request, packages/providers (inbound.ts) records what it means.
 *
 * twilio's webhook and TwiML modules are imported on their own: the package's
 * entry point loads its whole REST client, which leadhook does not use (its
 * REST calls go through got, like every outbound request).
 */
import MessagingResponse from 'twilio/lib/twiml/MessagingResponse.js';
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import type { CallStatus, SmsStatus } from './provider.js';

/** A form's fields; a name sent more than once keeps all its values (Twilio signs them all). */
export type TwilioParams = Record<string, string | string[]>;

/** The fields of an `application/x-www-form-urlencoded` body, as Twilio signed them. */
export function twilioParams(form: string): TwilioParams {
  const params: TwilioParams = {};
  for (const [name, value] of new URLSearchParams(form)) {
    const seen = params[name];
    if (seen === undefined) params[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else params[name] = [seen, value];
  }
  return params;
}

/** A field's (first) value. */
export function twilioParam(params: TwilioParams, name: string): string | undefined {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface TwilioSignedRequest {
  /** TWILIO_AUTH_TOKEN. */
  authToken: string;
  /** X-Twilio-Signature, as sent. */
  signature: string;
  /** The full URL Twilio called: PUBLIC_BASE_URL + the request's path and query. */
  url: string;
  params: TwilioParams;
}

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed by the auth token, of the URL
 * followed by the POST fields sorted by name. twilio's own check, which also
 * accepts the URL with and without its default port, as Twilio may sign either.
 */
export function isTwilioSignatureValid(request: TwilioSignedRequest): boolean {
  return validateRequest(request.authToken, request.signature, request.url, request.params);
}

/**
 * `<Response/>`: Twilio sends no reply of ours to an inbound message (its own
 * STOP handling, Advanced Opt-Out, may still answer the keyword).
 */
export const EMPTY_TWIML = new MessagingResponse().toString();

/**
 * Twilio's ErrorCode 21610: the recipient replied STOP to this sender, and
 * Twilio refuses to text them. leadhook records the outcome opted_out.
 */
export const TWILIO_UNSUBSCRIBED = '21610';

/**
 * ErrorCodes that say the number cannot receive SMS at all, so texting it again
 * is pointless (the outcome undeliverable ends the lead): 21211 invalid 'To'
 * number, 21614 'To' is not a mobile number, 30006 a landline or a carrier that
 * cannot take SMS. Codes that may pass (30003 handset off, 30005 unknown
 * handset, 30004 blocked, 30007 filtered, 30008 unknown) are a plain failure,
 * and the play goes on.
 */
export const TWILIO_UNDELIVERABLE_SMS = new Set(['21211', '21614', '30006']);

/** Message statuses that are still on their way: no activity, the row stays as it is. */
const SMS_PROGRESS = new Set(['queued', 'accepted', 'scheduled', 'sending', 'sent']);
/** Call statuses of a call still under way. */
const CALL_PROGRESS = new Set(['queued', 'initiated', 'ringing', 'in-progress']);
/** AnsweredBy values of answering machine detection that mean a machine took the call. */
const MACHINE = new Set([
  'machine_start',
  'machine_end_beep',
  'machine_end_silence',
  'machine_end_other',
]);

/**
 * What a status callback says, in leadhook's terms. `status` null: the message
 * or call is still under way (or Twilio reported something leadhook keeps no
 * status for, e.g. a message's `read`), and nothing changes.
 */
export type TwilioStatusReport =
  | { channel: 'sms'; carrierId: string; status: SmsStatus | null; errorCode: string | null }
  | { channel: 'call'; carrierId: string; status: CallStatus | null; errorCode: string | null };

/**
 * Reads a status callback: a call's (CallSid, CallStatus, AnsweredBy) or a
 * message's (MessageSid, MessageStatus, ErrorCode); null when it names neither.
 */
export function twilioStatusReport(params: TwilioParams): TwilioStatusReport | null {
  const errorCode = twilioParam(params, 'ErrorCode') || null;
  const callSid = twilioParam(params, 'CallSid');
  const callStatus = twilioParam(params, 'CallStatus');
  if (callSid && callStatus) {
    const answeredBy = twilioParam(params, 'AnsweredBy');
    return {
      channel: 'call',
      carrierId: callSid,
      status: callOutcome(callStatus, answeredBy),
      errorCode,
    };
  }
  const messageSid = twilioParam(params, 'MessageSid') ?? twilioParam(params, 'SmsSid');
  const messageStatus = twilioParam(params, 'MessageStatus') ?? twilioParam(params, 'SmsStatus');
  if (messageSid && messageStatus) {
    return {
      channel: 'sms',
      carrierId: messageSid,
      status: smsOutcome(messageStatus, errorCode),
      errorCode,
    };
  }
  return null;
}

/**
 * What Twilio's list says became of a message or call (a step's reconcile
 * finds it there), in the terms of its status callback (twilioStatusReport):
 * a message's status and error_code, a call's status and answered_by. `status`
 * null: still under way.
 */
export function twilioListedStatus(
  channel: 'sms' | 'call',
  listed: { status: string; error_code?: number | string | null; answered_by?: string | null },
): { status: SmsStatus | CallStatus | null; errorCode: string | null } {
  const errorCode =
    listed.error_code === undefined || listed.error_code === null || listed.error_code === ''
      ? null
      : String(listed.error_code);
  if (channel === 'sms') return { status: smsOutcome(listed.status, errorCode), errorCode };
  return { status: callOutcome(listed.status, listed.answered_by ?? undefined), errorCode };
}

function smsOutcome(status: string, errorCode: string | null): SmsStatus | null {
  if (SMS_PROGRESS.has(status)) return null;
  if (status === 'delivered') return 'delivered';
  if (status !== 'undelivered' && status !== 'failed') return null;
  if (errorCode === TWILIO_UNSUBSCRIBED) return 'opted_out';
  if (errorCode !== null && TWILIO_UNDELIVERABLE_SMS.has(errorCode)) return 'undeliverable';
  return 'failed';
}

/**
 * A completed call was answered by a person unless answering machine detection
 * says a machine took it (then a voicemail was left); without detection, or
 * when it could not tell (`unknown`), someone answered. A fax machine is a
 * failed call: the detection's guess does not end the lead.
 */
function callOutcome(status: string, answeredBy: string | undefined): CallStatus | null {
  if (CALL_PROGRESS.has(status)) return null;
  switch (status) {
    case 'completed':
      if (answeredBy !== undefined && MACHINE.has(answeredBy)) return 'voicemail';
      return answeredBy === 'fax' ? 'failed' : 'answered';
    case 'busy':
    case 'no-answer':
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}
