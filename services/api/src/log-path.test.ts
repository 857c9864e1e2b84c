import { redactApiPath } from './log-path.js';

describe('redactApiPath', () => {
  it.each([
    [
      '/api/v1/leads/lead_01jdq3v3m5a8f0k2x9b7c6d4e1',
      '/api/v1/leads/lead_01jdq3v3m5a8f0k2x9b7c6d4e1',
    ],
    [
      '/api/v1/marketing_sources/src_01jdq3v3m5a8f0k2x9b7c6d4e1/rotate_url',
      '/api/v1/marketing_sources/src_01jdq3v3m5a8f0k2x9b7c6d4e1/rotate_url',
    ],
    ['/api/v1/openapi.json', '/api/v1/openapi.json'],
    ['/api/v1/account/api_keys/rotate', '/api/v1/account/api_keys/rotate'],
    ['/api/v1/leads/jane.doe%40example.com', '/api/v1/leads/[redacted]'],
    ['/api/v1/leads/+14155550142/activities', '/api/v1/leads/[redacted]/activities'],
    ['/api/v1/leads/janedoe', '/api/v1/leads/[redacted]'],
    ['/nowhere/4155550142', '/[redacted]/[redacted]'],
  ])('%s is logged as %s', (path, logged) => {
    expect(redactApiPath(path)).toBe(logged);
  });
});
