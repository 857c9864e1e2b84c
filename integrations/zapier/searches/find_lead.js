/**
 * "Find Lead": the account's leads with this phone (any notation, read as
 * intake reads it), email (any case) or external id, newest first.
 */

const { apiUrl } = require('../lib/api');

const perform = async (z, bundle) => {
  const params = {};
  for (const key of ['phone', 'email', 'external_id']) {
    const value = bundle.inputData[key];
    if (value !== undefined && value !== null && String(value).trim() !== '')
      params[key] = String(value).trim();
  }
  if (Object.keys(params).length === 0) {
    throw new z.errors.Error(
      'Give a phone, an email or an external ID to search by.',
      'MissingSearch',
      400,
    );
  }
  const response = await z.request({
    url: apiUrl(bundle, '/leads'),
    params: { ...params, limit: 25 },
  });
  return response.data.data;
};

module.exports = {
  key: 'find_lead',
  noun: 'Lead',
  display: {
    label: 'Find Lead',
    description: 'Finds a lead by phone, email or external ID.',
  },
  operation: {
    inputFields: [
      {
        key: 'phone',
        label: 'Phone',
        required: false,
        helpText: 'In any notation, e.g. `(512) 555-0100` or `+15125550100`.',
      },
      { key: 'email', label: 'Email', required: false },
      {
        key: 'external_id',
        label: 'External ID',
        required: false,
        helpText: 'The id the lead seller gave the lead.',
      },
    ],
    perform,
    sample: {
      id: 'lead_01jdq3v3m5a8f0k2x9b7c6d4e1',
      first_name: 'John',
      last_name: 'Roe',
      email: 'john.roe@example.com',
      phone: '+15125550100',
    },
  },
};
