import { Prisma, type PrismaClient } from '@leadhook/db';
import type { PageRequest } from './pagination.js';

/**
 * The delivery chains as the API reads them: a chain is the deliveries of one
 * lead to one subscription, and its head, the one the webhook worker tries,
 * is its earliest pending delivery (webhook_chain_head). Read-side only: the
 * worker's hot path pays nothing for the API's `queued` status.
 */

/** A chain: the deliveries of one lead to one subscription. */
export interface Chain {
  subscriptionId: string;
  leadId: string;
}

export const chainKey = (chain: Chain) => `${chain.subscriptionId} ${chain.leadId}`;

/** The head of each chain (webhook_chain_head: its earliest pending delivery), by chainKey. */
export type ChainHeads = ReadonlyMap<string, { id: string; attemptCount: number }>;

/**
 * The heads of the given chains, in one statement: webhook_chain_head is the
 * webhook worker's own definition of "the delivery tried now", an index probe of
 * deliveries_chain_idx per chain.
 */
export async function chainHeads(
  prisma: PrismaClient,
  chains: readonly Chain[],
): Promise<ChainHeads> {
  const unique = [...new Map(chains.map((c) => [chainKey(c), c])).values()];
  if (unique.length === 0) return new Map();
  const rows = await prisma.$queryRaw<
    { subscription_id: string; lead_id: string; id: string; attempt_count: number }[]
  >`SELECT c.subscription_id, c.lead_id, d.id, d.attempt_count
      FROM unnest(${unique.map((c) => c.subscriptionId)}::text[],
                  ${unique.map((c) => c.leadId)}::text[]) AS c(subscription_id, lead_id)
      JOIN deliveries d ON d.id = webhook_chain_head(c.subscription_id, c.lead_id)`;
  return new Map(
    rows.map((r) => [
      chainKey({ subscriptionId: r.subscription_id, leadId: r.lead_id }),
      { id: r.id, attemptCount: r.attempt_count },
    ]),
  );
}

/** A period of `created_at`: `from` included, `until` the first instant no longer included. */
export interface CreatedPeriod {
  from?: Date | undefined;
  until?: Date | undefined;
}

/**
 * The ids of one page of a subscription's pending (chain heads) or queued (the
 * others) deliveries created in `period`, newest first: the split is computed,
 * so it is a condition of the query and pages stay full. The period only picks
 * among them: a delivery's head is found among all its chain's pending ones. The heads are read in one pass over
 * deliveries_chain_idx (the first entry per lead, in webhook_chain_head's order),
 * not with a probe per pending row: a dead subscriber's thousands of queued
 * deliveries behind a few heads would make the probes the cost of the page.
 */
export async function pendingPageIds(
  prisma: PrismaClient,
  subscriptionId: string,
  status: 'pending' | 'queued',
  page: PageRequest,
  period: CreatedPeriod & { idFloor?: string | undefined } = {},
): Promise<string[]> {
  const after = page.cursor === undefined ? Prisma.empty : Prisma.sql`AND d.id < ${page.cursor}`;
  // Bounds sent as ISO strings cast to timestamptz, as the leads' (leadIdsSql).
  // idFloor (deliveryIdFloor) bounds the walk by id below the period's start.
  const from =
    period.from === undefined
      ? Prisma.empty
      : Prisma.sql`AND d.created_at >= ${period.from.toISOString()}::timestamptz ${
          period.idFloor === undefined ? Prisma.empty : Prisma.sql`AND d.id >= ${period.idFloor}`
        }`;
  const until =
    period.until === undefined
      ? Prisma.empty
      : Prisma.sql`AND d.created_at < ${period.until.toISOString()}::timestamptz`;
  const rows =
    status === 'pending'
      ? await prisma.$queryRaw<{ id: string }[]>`
          SELECT d.id FROM (
            SELECT DISTINCT ON (c.lead_id) c.id, c.created_at
              FROM deliveries c
             WHERE c.subscription_id = ${subscriptionId} AND c.status = 'pending'
             ORDER BY c.lead_id, c.activity_occurred_at, c.activity_id) d
           WHERE true ${after} ${from} ${until}
           ORDER BY d.id DESC
           LIMIT ${page.limit + 1}`
      : await prisma.$queryRaw<{ id: string }[]>`
          SELECT d.id FROM deliveries d
           WHERE d.subscription_id = ${subscriptionId} AND d.status = 'pending' ${after}
             ${from} ${until}
             AND d.id <> webhook_chain_head(d.subscription_id, d.lead_id)
           ORDER BY d.id DESC
           LIMIT ${page.limit + 1}`;
  return rows.map((r) => r.id);
}
