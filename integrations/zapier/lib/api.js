/**
 * Requests to the account's leadhook API. The connection's base URL is where the
 * api service answers (its /api/v1 is added here); the API key goes in every
 * request by the beforeRequest middleware (index.js).
 */

/** `https://leadhook.example.com/` → `https://leadhook.example.com/api/v1`. */
const apiUrl = (bundle, path) =>
  `${String(bundle.authData.base_url).replace(/\/+$/, '')}/api/v1${path}`;

/** Every item of a paginated list (`{data, next_cursor}`), following the cursors. */
const listAll = async (z, bundle, path, params = {}, max = 1000) => {
  const items = [];
  let cursor = null;
  do {
    const response = await z.request({
      url: apiUrl(bundle, path),
      params: { ...params, limit: 100, ...(cursor ? { cursor } : {}) },
    });
    items.push(...response.data.data);
    cursor = response.data.next_cursor;
  } while (cursor && items.length < max);
  return items;
};

module.exports = { apiUrl, listAll };
