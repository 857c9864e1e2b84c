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

/** Catalog entries of one group, in the order given: label → meaning. */
function entries(
  type: ActivityType,
  group: ActivityGroup,
  meanings: Readonly<Record<string, string>>,
): CatalogEntry[] {
  return Object.entries(meanings).map(([label, meaning]) => ({ label, type, group, meaning }));
}

export const ACTIVITY_CATALOG: readonly CatalogEntry[] = Object.freeze([
  ...entries('event', 'lifecycle', {
    started: 'The lead was enrolled and its play began.',
    completed: 'The last step of the playbook ran.',
    stopped: 'Outreach stopped: opt-out, an outcome, or an operator.',
    reengagement_sent: 'A re-engagement message was sent to a lead that had gone quiet.',
  }),
  ...entries('event', 'messaging', {
    first_message_sent: 'The first SMS of the play was sent.',
    message_sent: 'A later SMS of the play was sent.',
    message_delivered: 'The carrier confirmed an SMS was delivered.',
    message_failed: 'An SMS could not be delivered.',
    message_received: 'The lead replied; data.body holds the text.',
    double_opted_in: 'The lead confirmed consent a second time.',
    interested: 'The lead said they are interested.',
    talk_to_human: 'The lead asked to talk to a person.',
    contact_deferred:
      "A step waits for the lead's legal contact window; data.until says when it opens.",
  }),
  ...entries('event', 'calls', {
    call_attempted: 'A call to the lead was placed.',
    call_answered: 'The lead answered a call.',
    voicemail_left: 'A voicemail was left for the lead.',
  }),
  ...entries('event', 'party_line', {
    party_line_lead_attempted: 'A live transfer called the lead.',
    party_line_lead_unsuccessful: 'The live transfer could not reach the lead.',
    party_line_lead_answered: 'The lead answered the live transfer.',
    party_line_rep_attempted: 'The live transfer called a rep.',
    party_line_rep_unsuccessful: 'The live transfer could not reach a rep.',
    party_line_lead_initiated_call: 'The lead called in for a live transfer.',
    party_line_lead_initiated_call_unsuccessful:
      "The lead's inbound call could not be connected to a rep.",
  }),
  ...entries('event', 'copilot', {
    copilot_paused: 'An operator paused the automated outreach.',
    copilot_restarted: 'An operator restarted the automated outreach.',
  }),
  ...entries('outcome', 'outcome', {
    qualified: 'The lead qualified.',
    unqualified: 'The lead did not qualify.',
    interested: 'The lead is interested (terminal).',
    not_interested: 'The lead is not interested.',
    callback_requested: 'The lead asked to be called back.',
    party_line_completed: 'A live transfer to a rep completed.',
    opted_out: 'The lead opted out (STOP); no further contact.',
    undeliverable: 'The number cannot receive SMS or calls.',
    unreachable: 'The last step ran with no reply.',
    do_not_contact:
      "The phone is on the account's do-not-contact list; the lead was not contacted.",
  }),
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
