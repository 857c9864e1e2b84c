import { Prisma } from '@leadhook/db';
import { type LeadFilter, leadIdsSql } from './leads.service.js';
import { type Harness, startHarness } from './testing/harness.js';
import { createLead, type LeadOwner } from './testing/leads.factory.js';

/**
 * GET /leads's lookups by phone, email and external_id can each use an index of
 * the account's leads (migration lead_list_filters), rather than walk every lead
 * of the account. The test tables are small, so the planner is kept off
 * sequential scans: the question is which index it can use, not whether it
 * would for a few rows.
 */

let h: Harness;
let owner: LeadOwner;

beforeAll(async () => {
  h = await startHarness();
  const o = await h.owner();
  owner = { ...o, sourceId: await h.newSource(o) };
  for (let i = 0; i < 20; i++) {
    await createLead(h.prisma, owner, { email: `lead${i}@example.com`, externalId: `ext-${i}` });
  }
  await h.prisma.$executeRawUnsafe('ANALYZE leads');
});
afterAll(async () => {
  await h.close();
});

interface PlanNode {
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Every index scan of the plan: its index and what it is searched for. */
function indexScans(node: PlanNode): { index: string; cond: string }[] {
  const own = node['Index Name']
    ? [{ index: node['Index Name'], cond: node['Index Cond'] ?? '' }]
    : [];
  return [...own, ...(node.Plans ?? []).flatMap(indexScans)];
}

async function plan(filter: LeadFilter) {
  const query = leadIdsSql(owner.accountId, { limit: 20, cursor: undefined }, filter);
  const [, , rows] = await h.prisma.$transaction([
    h.prisma.$executeRaw`SET LOCAL enable_seqscan = off`,
    h.prisma.$executeRaw`SET LOCAL enable_bitmapscan = off`,
    h.prisma.$queryRaw<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
      Prisma.sql`EXPLAIN (FORMAT JSON) ${query}`,
    ),
  ]);
  return indexScans(rows[0]!['QUERY PLAN'][0].Plan);
}

describe('GET /leads lookups', () => {
  it('finds an email by leads (account_id, lower(email))', async () => {
    expect(await plan({ email: 'Lead3@Example.com' })).toEqual([
      { index: 'leads_account_id_lower_email_idx', cond: expect.stringContaining('lower') },
    ]);
  });

  it('finds an external_id by leads (account_id, external_id)', async () => {
    expect(await plan({ externalId: 'ext-3' })).toEqual([
      { index: 'leads_account_id_external_id_idx', cond: expect.stringContaining('external_id') },
    ]);
  });

  it('finds a phone by an index on phone', async () => {
    const scans = await plan({ phone: '+15125550100' });
    expect(scans).toHaveLength(1);
    expect(scans[0]!.cond).toContain('phone');
  });
});
