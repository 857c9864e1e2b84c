/**
 * "Create Lead": submits a lead to one of the account's marketing sources with
 * the API key (POST /marketing_sources/{id}/leads): the same checks, duplicate
 * rule and answers as the source's post URL, which Zapier never needs. The input
 * fields are the source's own (its Integration Instructions), so a field added to
 * leadhook appears here without a new version of the app.
 */

const { apiUrl } = require('../lib/api');

/** The source's accepted fields as Zapier input fields. */
const sourceFields = async (z, bundle) => {
  if (!bundle.inputData.source_id) return [];
  const response = await z.request({
    url: apiUrl(
      bundle,
      `/marketing_sources/${encodeURIComponent(bundle.inputData.source_id)}/integration`,
    ),
  });
  return response.data.fields.map((field) => ({
    key: field.name,
    label: field.name,
    required: field.required,
    type: 'string',
    helpText: `${field.description}${field.format ? ` Format: ${field.format}.` : ''} Example: \`${field.example}\`.`,
  }));
};

const perform = async (z, bundle) => {
  const { source_id: sourceId, ...fields } = bundle.inputData;
  // Fields left empty in the Zap are not sent (a blank optional field would be checked as sent).
  const lead = Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) => value !== undefined && value !== null && value !== '',
    ),
  );
  const response = await z.request({
    url: apiUrl(bundle, `/marketing_sources/${encodeURIComponent(sourceId)}/leads`),
    method: 'POST',
    body: lead,
  });
  // 201 accepted, or 200 duplicate naming the earlier lead: both carry lead_id.
  return { id: response.data.lead_id, ...response.data };
};

module.exports = {
  key: 'create_lead',
  noun: 'Lead',
  display: {
    label: 'Create Lead',
    description:
      "Submits a lead to a marketing source, as a lead seller would: it is checked, stored and enrolled in the source's playbook.",
  },
  operation: {
    inputFields: [
      {
        key: 'source_id',
        label: 'Marketing Source',
        required: true,
        dynamic: 'source_list.id.name',
        altersDynamicFields: true,
      },
      sourceFields,
    ],
    perform,
    sample: {
      id: 'lead_01jdq3v3m5a8f0k2x9b7c6d4e1',
      status: 'accepted',
      lead_id: 'lead_01jdq3v3m5a8f0k2x9b7c6d4e1',
    },
    outputFields: [
      { key: 'id', label: 'Lead ID' },
      { key: 'status', label: 'Status (accepted or duplicate)' },
      { key: 'lead_id', label: 'Lead ID' },
    ],
  },
};
