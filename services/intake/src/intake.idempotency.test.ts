import { bodyHash } from '@leadhook/intake-core';
import { useHarness, validLead } from '@leadhook/testkit';
import { countRows, createHarness } from './testing/harness.js';

const h = useHarness(() => createHarness());

describe('Idempotency-Key', () => {
  it('replays the first 201 with Idempotent-Replayed, without a new lead or submission', async () => {
    const source = await h.makeSource();
    const body = validLead();
    const first = await h.post(source, body, { 'Idempotency-Key': 'k-1' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // Same parsed body with its keys in another order: the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await h.post(source, reordered, { 'Idempotency-Key': 'k-1' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(1);
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(1);
  });

  it('replays a 422 and a duplicate 200 too', async () => {
    const source = await h.makeSource();
    const rejected = await h.post(source, { x: 1 }, { 'Idempotency-Key': 'bad' });
    expect(rejected.status).toBe(422);
    const replayed = await h.post(source, { x: 1 }, { 'Idempotency-Key': 'bad' });
    expect(replayed.status).toBe(422);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(rejected.body);

    const body = validLead();
    const original = await h.post(source, body);
    const dup = await h.post(source, body, { 'Idempotency-Key': 'dup' });
    expect(dup.status).toBe(200);
    const dupAgain = await h.post(source, body, { 'Idempotency-Key': 'dup' });
    expect(dupAgain.status).toBe(200);
    expect(dupAgain.headers['idempotent-replayed']).toBe('true');
    expect(dupAgain.body).toEqual({ status: 'duplicate', lead_id: original.body.lead_id });
    // rejected + original + one duplicate: replays record nothing.
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(3);
  });

  it('answers 409 idempotency_key_reused for another body, storing nothing', async () => {
    const source = await h.makeSource();
    await h.post(source, validLead(), { 'Idempotency-Key': 'k' }).expect(201);
    const other = validLead();
    const res = await h.post(source, other, { 'Idempotency-Key': 'k' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      status: 'rejected',
      errors: [
        { field: 'Idempotency-Key', code: 'idempotency_key_reused', message: expect.any(String) },
      ],
    });
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(1);
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(1);
    const { rows } = await h.pool.query(
      'SELECT request_hash FROM idempotency_keys WHERE source_id = $1',
      [source.sourceId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.request_hash).not.toBe(bodyHash(other));
  });

  it('is scoped to the source and kept 24 hours', async () => {
    const a = await h.makeSource();
    const b = await h.makeSource({ accountId: a.accountId });
    const res = await h.post(a, validLead(), { 'Idempotency-Key': 'shared' });
    expect(res.status).toBe(201);
    const other = await h.post(b, validLead(), { 'Idempotency-Key': 'shared' });
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();

    await h.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE source_id = $1`,
      [a.sourceId],
    );
    const later = await h.post(a, validLead(), { 'Idempotency-Key': 'shared' });
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.lead_id).not.toBe(res.body.lead_id);
  });

  it('makes concurrent requests with one key create one lead, all answering the same', async () => {
    const source = await h.makeSource();
    const body = validLead();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => h.post(source, body, { 'Idempotency-Key': 'race' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(responses.map((r) => r.body.lead_id)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(1);
  });

  it('refuses an unusable key with 400', async () => {
    const source = await h.makeSource();
    const res = await h.post(source, validLead(), { 'Idempotency-Key': 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'Idempotency-Key', code: 'invalid' });
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(0);
  });
});
