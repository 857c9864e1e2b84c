import type { CallStatus, SmsStatus } from './provider.js';

/** The activity a provider status becomes (docs/api.md, "Activities"), or null for none. */
export type StatusActivity =
  | {
      type: 'event';
      label: 'message_delivered' | 'message_failed' | 'call_answered' | 'voicemail_left';
    }
  | { type: 'outcome'; label: 'undeliverable' | 'opted_out' }
  | null;

/**
 * One mapping for the step job (synchronous answers) and status callbacks (late
 * answers). A failed call is only its call_attempted (with data.status failed);
 * an undeliverable number ends the lead with the outcome `undeliverable`, and a
 * recipient the carrier says unsubscribed with `opted_out`.
 */
export function statusActivity(
  status: { channel: 'sms'; status: SmsStatus } | { channel: 'call'; status: CallStatus },
): StatusActivity {
  if (status.status === 'undeliverable') return { type: 'outcome', label: 'undeliverable' };
  // Accepted by the carrier: what became of it comes by status callback.
  if (status.status === 'queued') return null;
  if (status.channel === 'sms') {
    // The carrier says the recipient unsubscribed: the outcome puts the phone on
    // the account's do-not-contact list (the activity path).
    if (status.status === 'opted_out') return { type: 'outcome', label: 'opted_out' };
    return {
      type: 'event',
      label: status.status === 'delivered' ? 'message_delivered' : 'message_failed',
    };
  }
  switch (status.status) {
    case 'answered':
      return { type: 'event', label: 'call_answered' };
    case 'voicemail':
      return { type: 'event', label: 'voicemail_left' };
    case 'failed':
      return null;
  }
}
