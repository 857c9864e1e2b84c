import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LEAD_FIELD_NAMES } from '@leadhook/contracts';
import { createTestDatabase, type TestDatabase } from '@leadhook/testkit';
import { leaksIn } from './leak-search.js';
import {
  apiClient,
  createAccount,
  ensureBuilt,
  freePort,
  type ServiceProcess,
  startProcess,
  validLead,
} from './support.js';

/**
 * No personal data from a rejected body is stored anywhere (docs/intake.md):
 * rejected requests of every kind carry one person's phone, email and name in
 * every position a seller controls (values, field names, the external_id,
 * headers, the query string, the Idempotency-Key), and then a full dump of the
 * database (`pg_dump --data-only`), the source's stats and everything the four
 * processes printed at LOG_LEVEL=debug are searched for them (leak-search.ts).
 */

let db: TestDatabase;
let intake: ServiceProcess;
let api: ServiceProcess;
let workers: ServiceProcess[] = [];

/** One person, sent only in bodies that are refused. */
const PHONE = '(512) 555-0163';
const EMAIL = 'zq8.rejectleak@leak-probe.example.com';
const FIRST = 'Xandrovella';
const LAST = 'Quibblethorpe';
const targets = {
  secrets: new Map<string, string>(),
  emails: [EMAIL],
  phones: [PHONE],
  personal: [
    { label: 'first name', value: FIRST },
    { label: 'last name', value: LAST },
  ],
};

/** A lead of that person (valid but for what each case breaks). */
function personLead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return validLead({
    first_name: FIRST,
    last_name: LAST,
    email: EMAIL,
    phone: PHONE,
    current_residence_address: `1 ${LAST} Way`,
    external_id: `${FIRST}-${LAST}`,
    ...(overrides as Record<string, string>),
  });
}

/** The same person in the headers and the query string of every request. */
const HEADERS = {
  'user-agent': `LeadBot/1.0 (${FIRST} ${LAST}; ${EMAIL}; ${PHONE})`,
  'x-lead-contact': `${FIRST} ${LAST} <${EMAIL}> ${PHONE}`,
  referer: `https://forms.example.com/?email=${encodeURIComponent(EMAIL)}`,
};
const QUERY = `?email=${encodeURIComponent(EMAIL)}&phone=${encodeURIComponent(PHONE)}&name=${FIRST}`;

beforeAll(async () => {
  ensureBuilt();
  db = await createTestDatabase();
  const env = {
    DATABASE_URL: db.url,
    QUEUE_PREFIX: `e2e-rejected-leak-${process.pid}`,
    LOG_LEVEL: 'debug',
  };
  const [intakePort, apiPort] = [await freePort(), await freePort()];
  const [playbookPort, webhookPort] = [await freePort(), await freePort()];
  const publicBaseUrl = `http://127.0.0.1:${intakePort}`;
  const withBase = { ...env, PUBLIC_BASE_URL: publicBaseUrl };
  let playbook: ServiceProcess;
  let webhook: ServiceProcess;
  [intake, api, playbook, webhook] = await Promise.all([
    startProcess('intake', intakePort, withBase),
    startProcess('api', apiPort, withBase),
    startProcess('playbook-worker', playbookPort, withBase),
    startProcess('webhook-worker', webhookPort, withBase),
  ]);
  workers = [playbook, webhook];
}, 120_000);

afterAll(async () => {
  await intake?.stop();
  await api?.stop();
  for (const worker of workers) await worker.stop();
  await db?.drop();
});

describe('a rejected body', () => {
  it('leaves no trace of its person in the database, the stats or any process output', async () => {
    const { api_key } = await createAccount(db.url, 'Rejected leak probe');
    const call = apiClient(api.port, api_key);
    const playbook = (await (
      await call('/playbooks', { method: 'POST', body: { name: 'P', steps: [] } })
    ).json()) as { id: string };
    const sourceResponse = await call('/marketing_sources', {
      method: 'POST',
      body: { name: 'Vendor', source_type: 'vendor', playbook_id: playbook.id },
    });
    expect(sourceResponse.status).toBe(201);
    const source = (await sourceResponse.json()) as { id: string; post_url: string };
    const url = `${source.post_url}${QUERY}`;

    const post = async (body: string, type: string, extra: Record<string, string> = {}) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...HEADERS, 'content-type': type, ...extra },
        body,
      });
      return { status: res.status, body: await res.text() };
    };
    const json = (body: unknown, extra?: Record<string, string>) =>
      post(JSON.stringify(body), 'application/json', extra);

    const extras = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`${FIRST}_${EMAIL}_${i}`, `${PHONE} ${LAST}`]),
      );
    const cases: [string, () => Promise<{ status: number; body: string }>, number][] = [
      ['an invalid email', () => json(personLead({ email: `${EMAIL} (home)` })), 422],
      [
        'an unknown field with a bad value',
        () => json({ ...personLead({ phone: '' }), [`${EMAIL}`]: { phone: PHONE } }),
        422,
      ],
      // 55 extras: over the 50 kept (422), under the 75 fields counted before parsing (413).
      ['too many fields', () => json({ ...personLead({ email: 'x' }), ...extras(55) }), 422],
      ['far too many fields', () => json({ ...personLead({ email: 'x' }), ...extras(80) }), 413],
      [
        'an unknown field name over 64 characters',
        () => json({ ...personLead({ email: 'x' }), [`${LAST}_${EMAIL}_${'n'.repeat(64)}`]: 1 }),
        422,
      ],
      [
        'over-long values',
        () =>
          json({
            ...personLead({ first_name: `${FIRST} ${'x'.repeat(120)}` }),
            note: `${EMAIL} ${PHONE} ${'y'.repeat(1100)}`,
          }),
        422,
      ],
      [
        'JSON posted as a form',
        () => post(JSON.stringify(personLead()), 'application/x-www-form-urlencoded'),
        400,
      ],
      [
        'text posted as a form',
        () => post(`${FIRST} ${LAST} ${EMAIL} ${PHONE}`, 'application/x-www-form-urlencoded'),
        400,
      ],
      [
        'a form with a blank name',
        () =>
          post(
            new URLSearchParams({
              ...(personLead({ first_name: '\u200b' }) as Record<string, string>),
              [`${EMAIL}`]: PHONE,
            }).toString(),
            'application/x-www-form-urlencoded',
          ),
        422,
      ],
      [
        'malformed JSON',
        () => post(`{"email":"${EMAIL}","phone":"${PHONE}",`, 'application/json'),
        400,
      ],
      ['an empty body', () => post('', 'application/json'), 400],
      ['another content type', () => post(`${EMAIL} ${PHONE}`, 'text/plain'), 415],
      [
        'a first use of an Idempotency-Key',
        () => json(personLead({ email: 'not-an-email' }), { 'idempotency-key': EMAIL }),
        422,
      ],
      [
        'the same Idempotency-Key with another body',
        () => json(personLead({ email: 'still-not-an-email' }), { 'idempotency-key': EMAIL }),
        409,
      ],
      [
        'a wrong post URL, the person in its path too',
        async () => {
          const res = await fetch(`${source.post_url}${encodeURIComponent(EMAIL)}${QUERY}`, {
            method: 'POST',
            headers: { ...HEADERS, 'content-type': 'application/json' },
            body: JSON.stringify(personLead()),
          });
          return { status: res.status, body: await res.text() };
        },
        404,
      ],
    ];
    for (const [what, send, status] of cases) {
      const answer = await send();
      expect([what, answer.status]).toEqual([what, status]);
    }

    // The rejections were recorded: as reasons, known fields and codes.
    const statsResponse = await call(`/marketing_sources/${source.id}/stats`);
    expect(statsResponse.status).toBe(200);
    const statsText = await statsResponse.text();
    const stats = JSON.parse(statsText) as {
      rejected: { total: number; by_reason: { field: string; code: string }[] };
    };
    expect(stats.rejected.total).toBe(7);
    const known = new Set<string>(['', ...LEAD_FIELD_NAMES, 'external_id']);
    expect(stats.rejected.by_reason.filter((r) => !known.has(r.field))).toEqual([]);
    expect(stats.rejected.by_reason).toContainEqual(
      expect.objectContaining({ field: '', code: 'unknown_field' }),
    );
    expect(leaksIn(statsText, targets)).toEqual([]);

    const { stdout: dump } = await promisify(execFile)(
      'pg_dump',
      ['--data-only', '--no-owner', `--dbname=${db.url}`],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // The dump has the run in it (the source, its rejections), and nothing of the person.
    expect(dump).toContain(source.id);
    expect(dump).toContain('unknown_field');
    expect(leaksIn(dump, targets)).toEqual([]);

    await intake.stop();
    await api.stop();
    for (const worker of workers) await worker.stop();
    for (const processOutput of [intake.output(), api.output()]) {
      expect(processOutput).toContain('"msg":"request completed"');
    }
    const outputs = [intake, api, ...workers].map((p) => p.output());
    for (const processOutput of outputs) {
      expect(processOutput).toContain('"msg":"stopped"');
      const leaking = processOutput
        .split('\n')
        .map((line) => ({ line, leaks: leaksIn(line, targets) }))
        .filter((l) => l.leaks.length > 0);
      expect(leaking).toEqual([]);
    }
    expect(intake.output()).toContain('"result":"rejected"');
  }, 120_000);
});
