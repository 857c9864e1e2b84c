import { useHarness, validLead } from '@leadhook/testkit';
import request from 'supertest';
import { createHarness } from './testing/harness.js';

const h = useHarness(() => createHarness());

describe('headers on every intake answer', () => {
  it('says nosniff and no-store, accepted or refused, found or not', async () => {
    const source = await h.makeSource();
    const answers = await Promise.all([
      h.post(source, validLead()),
      h.post(source, {}),
      h.post(source, '{', { 'content-type': 'application/json' }),
      request(h.app).post('/marketing_sources/acc_nope/key').send(validLead()),
      request(h.app).options(source.path).set('origin', 'https://seller.example'),
      request(h.app).get('/no/such/path'),
    ]);
    for (const res of answers) {
      expect([res.status, res.headers['x-content-type-options']]).toEqual([res.status, 'nosniff']);
      expect([res.status, res.headers['cache-control']]).toEqual([res.status, 'no-store']);
    }
    expect(answers.map((r) => r.status)).toEqual([201, 422, 400, 404, 204, 404]);
  });
});
