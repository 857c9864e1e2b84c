/**
 * "Report Activity": tells leadhook what happened to a lead elsewhere (a call
 * in the dialer, a sale in the CRM) with POST /leads/{id}/activities. It goes
 * through the same path as leadhook's own activities: stored, and delivered to
 * the subscriptions that chose its label. An outcome ends the lead's play.
 */

const { apiUrl } = require('../lib/api');

const perform = async (z, bundle) => {
  const { lead_id: leadId, activity_type: type, data } = bundle.inputData;
  const label = type === 'outcome' ? bundle.inputData.outcome_label : bundle.inputData.event_label;
  const response = await z.request({
    url: apiUrl(bundle, `/leads/${encodeURIComponent(leadId)}/activities`),
    method: 'POST',
    body: {
      activity_type: type,
      activity_label: label,
      ...(data && Object.keys(data).length > 0 ? { data } : {}),
    },
  });
  return response.data;
};

module.exports = {
  key: 'report_activity',
  noun: 'Activity',
  display: {
    label: 'Report Activity',
    description:
      'Records an event or an outcome on a lead; subscribers that chose its label receive it.',
  },
  operation: {
    inputFields: [
      {
        key: 'lead_id',
        label: 'Lead ID',
        required: true,
        helpText: 'The lead, `lead_…` (from a trigger or Find Lead).',
      },
      {
        key: 'activity_type',
        label: 'Type',
        required: true,
        choices: { event: 'Event', outcome: "Outcome (ends the lead's play)" },
        altersDynamicFields: true,
      },
      (_z, bundle) =>
        bundle.inputData.activity_type === 'outcome'
          ? [
              {
                key: 'outcome_label',
                label: 'Outcome',
                required: true,
                dynamic: 'outcome_label_list.id.label',
              },
            ]
          : [
              {
                key: 'event_label',
                label: 'Event',
                required: true,
                dynamic: 'event_label_list.id.label',
              },
            ],
      {
        key: 'data',
        label: 'Details',
        dict: true,
        required: false,
        helpText: 'Optional details, e.g. `body` for a message.',
      },
    ],
    perform,
    sample: {
      id: 'act_01m8cm4jjbhkcktfj2rj2d664f',
      lead_id: 'lead_01jdq3v3m5a8f0k2x9b7c6d4e1',
      activity_type: 'outcome',
      activity_label: 'appointment_set',
      activity_note: 'An appointment was set.',
      data: {},
      occurred_at: '2026-11-26T19:08:24.527Z',
    },
  },
};
