/**
 * Hidden triggers that fill the dynamic dropdowns: the account's playbooks and
 * marketing sources, and the catalog's event and outcome labels.
 */

const { apiUrl, listAll } = require('../lib/api');

const hidden = (key, noun, perform) => ({
  key,
  noun,
  display: {
    label: `List ${noun}s`,
    description: `The ${noun.toLowerCase()}s of your account, for dropdowns.`,
    hidden: true,
  },
  operation: { perform },
});

const playbooks = hidden('playbook_list', 'Playbook', async (z, bundle) =>
  (await listAll(z, bundle, '/playbooks')).map((p) => ({ id: p.id, name: p.name })),
);

const sources = hidden('source_list', 'Marketing Source', async (z, bundle) =>
  (await listAll(z, bundle, '/marketing_sources')).map((s) => ({
    id: s.id,
    name: s.status === 'active' ? s.name : `${s.name} (${s.status})`,
  })),
);

/** The labels a subscription (or a report) may name: the reserved ones are left out. */
const catalogLabels = async (z, bundle, type) => {
  const response = await z.request({ url: apiUrl(bundle, '/activity_catalog') });
  return response.data.data
    .filter((entry) => entry.type === type && entry.group !== 'reserved')
    .map((entry) => ({ id: entry.label, label: entry.label, meaning: entry.meaning }));
};

const eventLabels = hidden('event_label_list', 'Event label', (z, bundle) =>
  catalogLabels(z, bundle, 'event'),
);

const outcomeLabels = hidden('outcome_label_list', 'Outcome label', (z, bundle) =>
  catalogLabels(z, bundle, 'outcome'),
);

module.exports = { playbooks, sources, eventLabels, outcomeLabels, catalogLabels };
