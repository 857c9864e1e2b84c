import type { CallStatus, SmsStatus } from './provider.js';

/** The activity a provider status becomes (docs/api.md, "Activities"), or null for none. */
export type StatusActivity =
  | {
      type: 'event';
      label: 'message_delivered' | 'message_failed' | 'call_answered' | 'voicemail_left';
    }
  | { type: 'outcome'; label: 'undeliverable' }
  | null;

/**
 * One mapping for the step job (synchronous answers) and status callbacks (late
 * answers). A failed call is only its call_attempted (with data.status failed);
 * an undeliverable number ends the lead with the outcome `undeliverable`.
 */
export function statusActivity(
  status: { channel: 'sms'; status: SmsStatus } | { channel: 'call'; status: CallStatus },
): StatusActivity {
  if (status.status === 'undeliverable') return { type: 'outcome', label: 'undeliverable' };
  if (status.channel === 'sms') {
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
