/**
 * The timeline (activity labels, in order) of a lead worked through a playbook of
 * an SMS, another SMS and a call on the simulation provider, who never replies:
 * both messages delivered, the call ends at voicemail, then the play completes
 * and the lead is unreachable.
 */
export const SMS_SMS_CALL_UNANSWERED: readonly string[] = [
  'started',
  'first_message_sent',
  'message_delivered',
  'message_sent',
  'message_delivered',
  'call_attempted',
  'voicemail_left',
  'completed',
  'unreachable',
];
