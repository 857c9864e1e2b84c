import { createPool, createPrisma, type Pool, type PrismaClient } from '@leadhook/db';
import { aLead, aLeadOwner, createTestDatabase, type TestDatabase } from '@leadhook/testkit';
import { LEAD_LAST_MESSAGED_SQL } from './inbound.js';

// A carrier's reply is matched to the lead last messaged at its phone by an index
// walk, whatever the size of provider_messages (every SMS and call ever sent).

let db: TestDatabase;
let prisma: PrismaClient;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma({ databaseUrl: db.url, poolMax: 2 });
  pool = createPool({ databaseUrl: db.url, max: 2 });
});

afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
  await db.drop();
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

it('finds the lead last messaged at a phone through its index, among many messages', async () => {
  const owner = await aLeadOwner(prisma);
  const lead = await aLead(prisma, owner);
  // 30,000 messages to 10,000 phones, a tenth of them the simulation's.
  await pool.query(
    `INSERT INTO provider_messages (id, lead_id, channel, "to", status, provider, idempotency_key, created_at)
     SELECT 'pmsg_plan_' || g, $1, 'sms', '+1512' || lpad((g % 10000)::text, 7, '0'), 'delivered',
            CASE WHEN g % 10 = 0 THEN 'simulation' ELSE 'twilio' END, 'plan-' || g,
            now() - make_interval(secs => g)
       FROM generate_series(1, 30000) g`,
    [lead.id],
  );
  await pool.query('ANALYZE provider_messages');
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${LEAD_LAST_MESSAGED_SQL}`,
    ['twilio', '+15120001234'],
  );
  const plan = nodes(rows[0]!['QUERY PLAN'][0].Plan);
  expect(plan.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  expect(plan.map((n) => n['Index Name']).filter(Boolean)).toEqual([
    'provider_messages_provider_to_created_at_idx',
  ]);
  const found = await pool.query(LEAD_LAST_MESSAGED_SQL, ['twilio', '+15120001234']);
  expect(found.rows).toEqual([{ lead_id: lead.id }]);
});
