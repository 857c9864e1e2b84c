/**
 * "New Activity": a REST hook. Turning a Zap on subscribes its URL with
 * POST /hooks (the events and outcomes chosen, one playbook or all), turning it
 * off deletes the hook; leadhook then POSTs every chosen activity to Zapier as a
 * signed webhook, which perform checks and passes on as it came.
 */

const { apiUrl } = require('../lib/api');
const { isSigned } = require('../lib/signature');

/** A list input as the user left it: Zapier may give a string for one choice. */
const listOf = (value) =>
  value === undefined || value === null || value === '' ? [] : [].concat(value);

const subscribe = async (z, bundle) => {
  const events = listOf(bundle.inputData.events);
  const outcomes = listOf(bundle.inputData.outcomes);
  const response = await z.request({
    url: apiUrl(bundle, '/hooks'),
    method: 'POST',
    body: {
      target_url: bundle.targetUrl,
      events,
      outcomes,
      ...(bundle.inputData.playbook_id ? { playbook_id: bundle.inputData.playbook_id } : {}),
    },
  });
  // Kept by Zapier as bundle.subscribeData: the id to unsubscribe, the secret to check signatures.
  return response.data;
};

const unsubscribe = async (z, bundle) => {
  const response = await z.request({
    url: apiUrl(bundle, `/hooks/${encodeURIComponent(bundle.subscribeData.id)}`),
    method: 'DELETE',
    skipThrowForStatus: true,
  });
  // Already gone (deleted in the dashboard, or removed after a 410): nothing to undo.
  if (response.status !== 204 && response.status !== 404) response.throwForStatus();
  return {};
};

/** A delivery: only one signed with this hook's secret is passed on. */
const perform = (z, bundle) => {
  if (!isSigned(bundle.subscribeData?.secret, bundle.rawRequest)) {
    throw new z.errors.HaltedError(
      "The webhook is not signed with this Zap's leadhook secret: ignored.",
    );
  }
  return [bundle.cleanedRequest];
};

/**
 * Samples for the Zap editor: real recent activities of the chosen labels (built
 * like live deliveries), or a realistic one when the account has none yet.
 */
const performList = async (z, bundle) => {
  const labels = [...listOf(bundle.inputData.events), ...listOf(bundle.inputData.outcomes)].filter(
    (label) => label !== '*',
  );
  const wanted = labels.length > 0 ? labels.slice(0, 3) : ['first_message_sent'];
  const samples = [];
  for (const label of wanted) {
    const response = await z.request({ url: apiUrl(bundle, '/hooks/samples'), params: { label } });
    samples.push(...response.data.data);
  }
  return samples
    .sort((a, b) => String(b.occurred_at).localeCompare(String(a.occurred_at)))
    .slice(0, 3);
};

module.exports = {
  key: 'new_activity',
  noun: 'Activity',
  display: {
    label: 'New Activity',
    description:
      'Triggers when a lead has a new activity you chose: an event (a message sent, a call answered…) or an outcome (appointment set, opted out…).',
  },
  operation: {
    type: 'hook',
    inputFields: [
      {
        key: 'playbook_id',
        label: 'Playbook',
        dynamic: 'playbook_list.id.name',
        required: false,
        helpText: 'Only the activities of leads in this playbook. Leave empty for every playbook.',
      },
      {
        key: 'events',
        label: 'Events',
        dynamic: 'event_label_list.id.label',
        list: true,
        required: false,
        helpText:
          'The events to receive. Choose none to receive outcomes only; `*` for all events.',
      },
      {
        key: 'outcomes',
        label: 'Outcomes',
        dynamic: 'outcome_label_list.id.label',
        list: true,
        required: false,
        helpText:
          'The outcomes to receive. Choose none to receive events only; `*` for all outcomes.',
      },
    ],
    performSubscribe: subscribe,
    performUnsubscribe: unsubscribe,
    perform,
    performList,
    sample: {
      id: 'act_01m8cm4jjbhkcktfj2rj2d664f',
      activity_type: 'event',
      activity_label: 'first_message_sent',
      occurred_at: '2026-11-26T19:08:24.527Z',
      lead_originators: [{ origin: 'leadhook', key: 'lead_01m8cm4jeb5c42a4jxnvt4pv6j' }],
      lead_id: 'lead_01m8cm4jeb5c42a4jxnvt4pv6j',
      marketing_source: { id: 'src_01m8cm3z5rpknev41qng3nxnw9', name: 'Vendor A' },
      playbook: { id: 'pb_01m8cm3yqa3r7c5wh3paf0p26b', name: 'Auto quotes' },
      data: { step: 0 },
      activity_play_id: 'play_01m8cm4jf7a130edafvd7hvdyn',
      activity_note: 'The first SMS of the play was sent.',
      activity_created_at: '2026-11-26T19:08:24.527Z',
      lead_first_name: 'John',
      lead_last_name: 'Roe',
      lead_email: 'john.roe@example.com',
      lead_opted_out: false,
      lead_created_at: '2026-11-26T19:08:24.398Z',
      lead_additional_info: {},
    },
  },
};
