/**
 * The activity catalog (docs/api.md, "Activities"). It keeps the labels of the product leadhook
 * replaces (Mav), so a subscriber built for it keeps its filters, and adds the
 * finer-grained events the simulation flow needs. GET /activity_catalog, webhook
 * subscriptions' filters and POST /leads/{id}/activities all read this one table.
 */

export const ACTIVITY_TYPES = ['event', 'outcome'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_GROUPS = [
  'lifecycle',
  'messaging',
  'calls',
  'party_line',
  'copilot',
  'outcome',
  'reserved',
] as const;
export type ActivityGroup = (typeof ACTIVITY_GROUPS)[number];

export interface CatalogEntry {
  readonly label: string;
  readonly type: ActivityType;
  readonly group: ActivityGroup;
  readonly meaning: string;
}

const event = (group: CatalogEntry['group'], label: string, meaning: string): CatalogEntry => ({
  label,
  type: 'event',
  group,
  meaning,
});
const outcome = (label: string, meaning: string): CatalogEntry => ({
  label,
  type: 'outcome',
  group: 'outcome',
  meaning,
});

export const ACTIVITY_CATALOG: readonly CatalogEntry[] = Object.freeze([
  event('lifecycle', 'started', 'The lead was enrolled and its play began.'),
  event('lifecycle', 'completed', 'The last step of the playbook ran.'),
  event('lifecycle', 'stopped', 'Outreach stopped: opt-out, an outcome, or an operator.'),
  event(
    'lifecycle',
    'reengagement_sent',
    'A re-engagement message was sent to a lead that had gone quiet.',
  ),
  event('messaging', 'first_message_sent', 'The first SMS of the play was sent.'),
  event('messaging', 'message_sent', 'A later SMS of the play was sent.'),
  event('messaging', 'message_delivered', 'The carrier confirmed an SMS was delivered.'),
  event('messaging', 'message_failed', 'An SMS could not be delivered.'),
  event('messaging', 'message_received', 'The lead replied; data.body holds the text.'),
  event('messaging', 'double_opted_in', 'The lead confirmed consent a second time.'),
  event('messaging', 'interested', 'The lead said they are interested.'),
  event('messaging', 'talk_to_human', 'The lead asked to talk to a person.'),
  event(
    'messaging',
    'contact_deferred',
    "A step waits for the lead's legal contact window; data.until says when it opens.",
  ),
  event('calls', 'call_attempted', 'A call to the lead was placed.'),
  event('calls', 'call_answered', 'The lead answered a call.'),
  event('calls', 'voicemail_left', 'A voicemail was left for the lead.'),
  event('party_line', 'party_line_lead_attempted', 'A live transfer called the lead.'),
  event(
    'party_line',
    'party_line_lead_unsuccessful',
    'The live transfer could not reach the lead.',
  ),
  event('party_line', 'party_line_lead_answered', 'The lead answered the live transfer.'),
  event('party_line', 'party_line_rep_attempted', 'The live transfer called a rep.'),
  event('party_line', 'party_line_rep_unsuccessful', 'The live transfer could not reach a rep.'),
  event('party_line', 'party_line_lead_initiated_call', 'The lead called in for a live transfer.'),
  event(
    'party_line',
    'party_line_lead_initiated_call_unsuccessful',
    "The lead's inbound call could not be connected to a rep.",
  ),
  event('copilot', 'copilot_paused', 'An operator paused the automated outreach.'),
  event('copilot', 'copilot_restarted', 'An operator restarted the automated outreach.'),
  outcome('qualified', 'The lead qualified.'),
  outcome('unqualified', 'The lead did not qualify.'),
  outcome('interested', 'The lead is interested (terminal).'),
  outcome('not_interested', 'The lead is not interested.'),
  outcome('callback_requested', 'The lead asked to be called back.'),
  outcome('party_line_completed', 'A live transfer to a rep completed.'),
  outcome('opted_out', 'The lead opted out (STOP); no further contact.'),
  outcome('undeliverable', 'The number cannot receive SMS or calls.'),
  outcome('unreachable', 'The last step ran with no reply.'),
]);

export const EVENT_LABELS: readonly string[] = ACTIVITY_CATALOG.filter(
  (e) => e.type === 'event',
).map((e) => e.label);
export const OUTCOME_LABELS: readonly string[] = ACTIVITY_CATALOG.filter(
  (e) => e.type === 'outcome',
).map((e) => e.label);

/** The label of the test delivery (POST /subscriptions/{id}/test). */
export const TEST_LABEL = 'test';

/**
 * Labels leadhook sends by itself, outside the activity path: GET
 * /activity_catalog lists them (group `reserved`) so a subscriber knows what
 * they mean, but a subscription cannot select them (every subscription gets its
 * own test delivery when it is tested, whatever it selected) and POST
 * /leads/{id}/activities cannot report them. Not in ACTIVITY_CATALOG, whose
 * labels are exactly the selectable and reportable ones.
 */
export const RESERVED_LABELS: readonly CatalogEntry[] = Object.freeze([
  {
    label: TEST_LABEL,
    type: 'event',
    group: 'reserved',
    meaning:
      'A test delivery, sent only by POST /subscriptions/{id}/test to the subscription tested, whatever labels it selected; never about a lead (lead_id null). Cannot be selected or reported.',
  },
]);

/** The reserved entry for `label`, or undefined. */
export function reservedLabel(label: string): CatalogEntry | undefined {
  return RESERVED_LABELS.find((e) => e.label === label);
}

/** The catalog entry for (type, label), or undefined: `interested` is both an event and an outcome. */
export function catalogEntry(type: ActivityType, label: string): CatalogEntry | undefined {
  return ACTIVITY_CATALOG.find((e) => e.type === type && e.label === label);
}

/**
 * STOP and its usual synonyms (docs/api.md, "Activities"), any case, surrounding whitespace:
 * a reply that is one of these ends outreach at once.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
]);

export function isStopReply(text: string): boolean {
  return STOP_WORDS.has(text.trim().toUpperCase());
}
