const { apiUrl } = require('./lib/api');

/**
 * Custom authentication: where the account's leadhook answers and an API key of
 * that account (give Zapier its own named key, so it can be revoked alone).
 * The connection test reads the account; its name labels the connection.
 */
module.exports = {
  type: 'custom',
  fields: [
    {
      key: 'base_url',
      label: 'leadhook URL',
      required: true,
      type: 'string',
      helpText:
        'Where your leadhook answers, e.g. `https://leadhook.example.com` (the address of its dashboard, without `/dashboard`).',
    },
    {
      key: 'api_key',
      label: 'API key',
      required: true,
      type: 'password',
      helpText:
        'An API key of your account. Create one named "Zapier" in the dashboard, Settings > Integrations, so you can revoke it alone.',
    },
  ],
  test: async (z, bundle) => {
    const response = await z.request({ url: apiUrl(bundle, '/account') });
    return response.data;
  },
  connectionLabel: '{{name}}',
};
