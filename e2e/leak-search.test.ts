import { leaksIn } from './leak-search.js';

/** The search log-leak.test.ts runs on every process's output: it must find each spelling. */

const targets = {
  secrets: new Map([
    ['api key', 'lh_Zq7ApiKeyProbe0123456789abcdefghij'],
    ['intake key', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['webhook secret', 'whsec_c2VjcmV0LXByb2JlLWJ5dGVzLTAxMjM0NTY3'],
  ]),
  emails: ['zq7.leakprobe+json@leak-probe.example.com', 'ZQ7.Form@Leak-Probe.example.com'],
  phones: ['(415) 555-0177', '415.555.0178'],
  personal: [{ label: 'last name', value: 'Vexmoreland' }],
};

describe('leaksIn', () => {
  it.each([
    ['a piece of the API key', '{"msg":"x","key":"Zq7ApiKeyProbe0123"}', 'api key'],
    [
      'a truncated intake key in a path',
      '{"path":"/marketing_sources/acc_1/AbCdEfGhIjKlMnOpQrSt"}',
      'intake key',
    ],
    [
      'the secret lower-cased',
      '{"s":"whsec_c2vjcmv0lxbyb2jllwj5dgvzltaxmjm0nty3"}',
      'webhook secret',
    ],
    ['a phone in E.164', '{"to":"+14155550177"}', 'phone (415) 555-0177'],
    ['a phone URL-encoded', '{"to":"%2B1%20(415)%20555-0178"}', 'phone 415.555.0178'],
    ['a phone as digits', '{"phone":"4155550178"}', 'phone 415.555.0178'],
    [
      'an email',
      '{"email":"zq7.leakprobe+json@leak-probe.example.com"}',
      'email zq7.leakprobe+json',
    ],
    ['an email lower-cased', '{"email":"zq7.form@leak-probe.example.com"}', 'email ZQ7.Form'],
    ['an email URL-encoded', '{"q":"zq7.form%40leak-probe.example.com"}', 'email ZQ7.Form'],
    [
      'an email masked but its local part',
      '{"email":"zq7.form@***"}',
      'email local part of ZQ7.Form',
    ],
    ['a name upper-cased', '{"name":"VEXMORELAND"}', 'last name'],
    ['a name JSON-escaped', '{"name":"\\u0056exmoreland"}', 'last name'],
  ])('finds %s', (_case, output, found) => {
    expect(leaksIn(output, targets)).toEqual([expect.stringContaining(found)]);
  });

  it('finds nothing in a line of ids, statuses and times', () => {
    const line =
      '{"level":"info","time":"2026-11-22T18:44:46.598Z","lead_id":"lead_01m8296649tjd3dqwk7b9ef6r3","status_code":500,"duration_ms":470}';
    expect(leaksIn(line, targets)).toEqual([]);
  });
});
