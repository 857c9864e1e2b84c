import { newId } from '@leadhook/db';
import {
  type AcceptInput,
  acceptBatch,
  advisoryKey,
  findActiveSources,
  type IntakeSource,
} from '@leadhook/intake-core';
import { randomPhone, validLead } from '@leadhook/testkit';
import { countRows, createHarness, type Harness, TEST_NOW } from './testing/harness.js';

let h: Harness;
let source: IntakeSource;

beforeAll(async () => {
  h = await createHarness();
  const made = await h.makeSource();
  const [found] = await findActiveSources(h.pool, [
    { accountId: made.accountId, intakeKey: made.key },
  ]);
  source = found!;
});

afterAll(async () => {
  await h.close();
});

/** A batch item for `phone` (national notation), as the service builds it. */
async function item(phone: string): Promise<AcceptInput> {
  const { createLeadValidator } = await import('@leadhook/contracts');
  const validation = createLeadValidator({ now: () => TEST_NOW })(validLead({ phone }));
  if (!validation.ok) throw new Error('the factory lead must be valid');
  return {
    lockKey: advisoryKey('lead-phone', source.accountId, validation.lead.fields.phone),
    source,
    lead: validation.lead,
    leadId: newId('lead'),
    submissionId: newId('submission'),
    windowDays: 30,
    evidence: { ip: '203.0.113.9', userAgent: 'test', receivedAt: new Date() },
  };
}

describe('findActiveSources', () => {
  it('answers each key in input order, null for an unknown one, asking once per source', async () => {
    const other = await h.makeSource();
    const sibling = await h.makeSource({ accountId: source.accountId });
    const known = { accountId: source.accountId, intakeKey: sibling.key };
    const results = await findActiveSources(h.pool, [
      { accountId: other.accountId, intakeKey: other.key },
      { accountId: source.accountId, intakeKey: 'no-such-key-0000000' },
      { accountId: other.accountId, intakeKey: other.key },
      known,
    ]);
    expect(results.map((s) => s?.id ?? null)).toEqual([
      other.sourceId,
      null,
      other.sourceId,
      sibling.sourceId,
    ]);
  });
});

describe('acceptBatch', () => {
  it('answers one outcome per item, in order; a phone repeated in the batch is a duplicate of its first lead', async () => {
    const x = randomPhone().national;
    const y = randomPhone().national;
    const items = [await item(x), await item(x), await item(y)];
    const outcomes = await acceptBatch(h.pool, items);
    expect(outcomes).toEqual([
      { result: 'accepted', leadId: items[0]!.leadId },
      { result: 'duplicate', leadId: items[0]!.leadId },
      { result: 'accepted', leadId: items[2]!.leadId },
    ]);
    const ids = [items[0]!.leadId, items[1]!.leadId, items[2]!.leadId];
    expect(await countRows(h.pool, 'leads', 'id = ANY($1)', [ids])).toBe(2);
    expect(await countRows(h.pool, 'outbox', "payload->>'lead_id' = ANY($1)", [ids])).toBe(2);
    const subs = [items[0]!.submissionId, items[1]!.submissionId, items[2]!.submissionId];
    expect(await countRows(h.pool, 'submissions', 'id = ANY($1)', [subs])).toBe(3);
  });

  it('stores nothing of a batch one of whose leads PostgreSQL refuses', async () => {
    const good = await item(randomPhone().national);
    const bad = await item(randomPhone().national);
    bad.lead.fields.first_name = 'Ja\u0000ne';
    await expect(acceptBatch(h.pool, [good, bad])).rejects.toThrow();
    expect(await countRows(h.pool, 'leads', 'id = $1', [good.leadId])).toBe(0);
  });

  it('never deadlocks: concurrent batches sharing phones in opposite orders all commit', async () => {
    for (let round = 0; round < 10; round++) {
      const phones = Array.from({ length: 8 }, () => randomPhone().national);
      const batches = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const order = i % 2 === 0 ? phones : [...phones].reverse();
          return Promise.all(order.map(item));
        }),
      );
      const results = await Promise.all(batches.map((b) => acceptBatch(h.pool, b)));
      const accepted = results.flat().filter((o) => o.result === 'accepted');
      expect(accepted).toHaveLength(phones.length);
    }
  });
});
