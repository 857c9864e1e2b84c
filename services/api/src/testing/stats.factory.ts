import { newId, type PrismaClient } from '@leadhook/db';
import { anActivity } from '@leadhook/testkit';
import { type AuthedAgent, type Harness, sourceBody } from './harness.js';
import { createLead, type LeadOwner } from './leads.factory.js';

/**
 * What source stats count, written straight through Prisma as intake and the
 * activity recorder store it, and the account and sources to count it for.
 * Factories: every call makes fresh rows.
 */

export type Reason = { field: string; code: string };

/** A submission of the source at `at`; a rejected one carries its reasons. */
export async function createSubmission(
  prisma: PrismaClient,
  owner: LeadOwner,
  result: 'accepted' | 'duplicate' | 'rejected',
  at: string,
  errors: Reason[] = [],
): Promise<void> {
  await prisma.submission.create({
    data: {
      id: newId('submission'),
      accountId: owner.accountId,
      sourceId: owner.sourceId,
      result,
      ...(result === 'rejected' ? { errors } : {}),
      createdAt: new Date(at),
    },
  });
}

/**
 * A lead of the source that reached `label` at `at`. Its accepted submission is
 * dated `receivedAt`, which tests keep outside the range they ask for.
 */
export async function createOutcome(
  prisma: PrismaClient,
  owner: LeadOwner,
  label: string,
  at: string,
  receivedAt = '2020-01-01T00:00:00.000Z',
): Promise<void> {
  const leadId = await createLead(prisma, owner, { receivedAt: new Date(receivedAt) });
  await anActivity(prisma, {
    accountId: owner.accountId,
    leadId,
    type: 'outcome',
    label,
    note: `Outcome: ${label}.`,
    occurredAt: new Date(at),
  });
}

export interface StatsOwner {
  api: AuthedAgent;
  source: LeadOwner;
  /** Another source of the same account and playbook. */
  newSource(): Promise<LeadOwner>;
}

/** An account with a playbook and one source, through the API. */
export async function createStatsOwner(h: Harness): Promise<StatsOwner> {
  const owner = await h.owner();
  const newSource = async (): Promise<LeadOwner> => {
    const res = await owner.api
      .post('/api/v1/marketing_sources')
      .send(sourceBody(owner.playbookId));
    expect(res.status).toBe(201);
    return { accountId: owner.accountId, playbookId: owner.playbookId, sourceId: res.body.id };
  };
  return { api: owner.api, source: await newSource(), newSource };
}
