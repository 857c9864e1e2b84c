/** Every request carries the connection's API key. */
const addApiKey = (request, _z, bundle) => {
  request.headers = request.headers || {};
  if (bundle.authData?.api_key) {
    request.headers.Authorization = `Bearer ${bundle.authData.api_key}`;
  }
  request.headers.Accept = 'application/json';
  return request;
};

/** The problems an error answer lists, in words: `field: message; …`. */
const problemsOf = (list) =>
  (list || []).map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ');

/**
 * A 401 is Zapier's expired-authentication error (the user is asked to reconnect); any
 * other error answer is shown in the API's own words. The management API answers
 * `{"error": {"code", "message", "details": [...]}}`; creating a lead answers as
 * intake does, `{"status": "rejected", "errors": [{field, code, message}]}`.
 * A 429 is left to Zapier, which waits for its Retry-After and tries again.
 * The 401 comes first: even a request that reads its own status
 * (skipThrowForStatus) cannot go on with a key that is not accepted.
 */
const explainErrors = (response, z) => {
  if (response.status === 401) {
    // Custom auth has nothing to refresh: the connection is marked expired and
    // Zapier asks the user to reconnect it.
    throw new z.errors.ExpiredAuthError(
      'leadhook did not accept the API key: check it, or create a new one in Settings > Integrations.',
    );
  }
  // A request that reads its own status (skipThrowForStatus) gets the answer as it is.
  if (response.status < 400 || response.status === 429 || response.skipThrowForStatus) {
    return response;
  }
  const body = response.data || {};
  if (body.error?.message) {
    const details = problemsOf(body.error.details);
    throw new z.errors.Error(
      details ? `${body.error.message} ${details}` : body.error.message,
      body.error.code || 'ApiError',
      response.status,
    );
  }
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    throw new z.errors.Error(
      `leadhook did not accept the lead: ${problemsOf(body.errors)}`,
      body.errors[0].code || 'LeadRejected',
      response.status,
    );
  }
  return response;
};

module.exports = { addApiKey, explainErrors };
