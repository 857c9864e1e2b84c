import { useHarness } from '@leadhook/testkit';
import supertest from 'supertest';
import { startHarness } from './testing/harness.js';

const h = useHarness(() => startHarness());

describe('headers on every api answer', () => {
  it('says nosniff and no-store, on secrets, errors and health alike', async () => {
    const { api_key } = await h.newAccount();
    const api = h.as(api_key);
    const answers = [
      await api.get('/api/v1/playbooks/pb_nope'),
      await h.as('lh_wrong').get('/api/v1/account'),
      await h.anonymous.get('/api/v1/openapi.json'),
      await api.post('/api/v1/account/api_keys/rotate'), // carries a new API key
      await supertest(h.app).get('/healthz'), // not an API path: unchecked
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 401, 200, 200, 200]);
    for (const res of answers) {
      expect([res.status, res.headers['x-content-type-options']]).toEqual([res.status, 'nosniff']);
      expect([res.status, res.headers['cache-control']]).toEqual([res.status, 'no-store']);
    }
  });
});
