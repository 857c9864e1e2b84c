import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR, newId } from '@leadhook/db';
import { idempotencyKeyDigest } from '@leadhook/intake-core';
import { useHarness, validLead } from '@leadhook/testkit';
import { createHarness } from './testing/harness.js';

/**
 * The migration that removes what earlier versions kept of rejections: run again
 * on rows written the old way (the test database already has it applied once),
 * it leaves what intake writes today, and a key stored before it still replays.
 */

const MIGRATION = join(
  MIGRATIONS_DIR,
  '20261126190000_rejections_keep_no_seller_data',
  'migration.sql',
);

const h = useHarness(() => createHarness());

async function migrate(): Promise<void> {
  const client = await h.pool.connect();
  try {
    await client.query(readFileSync(MIGRATION, 'utf8'));
  } finally {
    // Its pg_temp functions go with the session.
    client.release(true);
  }
}

describe('the rejections migration', () => {
  it('clears what old rejections kept of the seller, and keeps old keys replaying', async () => {
    const source = await h.makeSource();
    const jsonAsForm = '{"first_name":"Zq7","email":"zq7@leak.example.com"}';
    const oldRejection = newId('submission');
    await h.pool.query(
      `INSERT INTO submissions (id, account_id, source_id, result, external_id, errors, ip, user_agent)
       VALUES ($1, $2, $3, 'rejected', 'zq7-ext', $4, '127.0.0.1', 'zq7-agent')`,
      [
        oldRejection,
        source.accountId,
        source.sourceId,
        JSON.stringify([
          { field: 'email', code: 'invalid' },
          { field: jsonAsForm, code: 'invalid' },
          { field: 'zq7_other', code: 'too_long' },
          { field: 'zq7_extra_51', code: 'too_many_fields' },
        ]),
      ],
    );
    // An idempotent 201 and 422 stored under their raw keys, as before.
    const body = validLead();
    const accepted = await h.post(source, body, { 'Idempotency-Key': 'k-ok' });
    expect(accepted.status).toBe(201);
    const rejectedBody = { zq7_object: { a: 1 } };
    const rejected = await h.post(source, rejectedBody, { 'Idempotency-Key': 'k-bad' });
    expect(rejected.status).toBe(422);
    await h.pool.query(
      `UPDATE idempotency_keys SET key = CASE key WHEN $2 THEN 'k-ok' ELSE 'k-bad' END,
              response_body = CASE key WHEN $2 THEN response_body ELSE $3::jsonb END
        WHERE source_id = $1`,
      [source.sourceId, idempotencyKeyDigest('k-ok'), JSON.stringify(rejected.body)],
    );
    const raw = await h.pool.query('SELECT key FROM idempotency_keys WHERE source_id = $1', [
      source.sourceId,
    ]);
    expect(raw.rows.map((r) => r.key).sort()).toEqual(['k-bad', 'k-ok']);

    await migrate();
    await migrate(); // twice: the second run changes nothing

    const { rows } = await h.pool.query('SELECT * FROM submissions WHERE id = $1', [oldRejection]);
    expect(rows[0]).toMatchObject({
      external_id: null,
      user_agent: null,
      ip: '127.0.0.1',
      errors: [
        { field: 'email', code: 'invalid' },
        { field: null, code: 'unknown_field' },
        { field: null, code: 'too_many_fields' },
      ],
    });
    const keys = await h.pool.query(
      'SELECT key, response_body FROM idempotency_keys WHERE source_id = $1',
      [source.sourceId],
    );
    expect(JSON.stringify(keys.rows)).not.toContain('zq7');
    expect(keys.rows.map((r) => r.key).sort()).toEqual(
      [idempotencyKeyDigest('k-bad'), idempotencyKeyDigest('k-ok')].sort(),
    );

    // The keys stored before still replay their answers.
    const replayOk = await h.post(source, body, { 'Idempotency-Key': 'k-ok' });
    expect([replayOk.status, replayOk.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(replayOk.body).toEqual(accepted.body);
    const replayBad = await h.post(source, rejectedBody, { 'Idempotency-Key': 'k-bad' });
    expect([replayBad.status, replayBad.headers['idempotent-replayed']]).toEqual([422, 'true']);
    expect(replayBad.body.errors).toEqual(
      rejected.body.errors.map((e: { field: string }) => ({
        ...e,
        field: e.field.startsWith('zq7') ? null : e.field,
      })),
    );
  });
});
