import { type ActivityType, catalogEntry, isStopReply } from '@leadhook/contracts';
import { newId, type Prisma, type PrismaClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';

/**
 * The activity path (issue 4): the ONE way an activity comes to exist, for the
 * playbook worker's own steps and for POST /leads/{id}/activities alike.
 *
 * In one transaction it writes the activity row, applies the terminal-outcome
 * rule (at most one outcome per lead: checked under the lead's row lock, and
 * enforced by the unique index activities_one_outcome_per_lead as the backstop),
 * stops an active play when an outcome arrives (with a `stopped` event first),
 * and writes an outbox row per activity for the webhook worker. After commit the
 * activity jobs are enqueued as a fast path; the outbox relay covers Redis.
 */

export type Tx = Prisma.TransactionClient;

export interface NewActivity {
  leadId: string;
  type: ActivityType;
  label: string;
  data?: Record<string, unknown>;
  /** activity_note; defaults to the catalog's meaning of the label. */
  note?: string;
  enrollmentId?: string | null;
}

export interface RecordedActivity {
  id: string;
  leadId: string;
  type: ActivityType;
  label: string;
  occurredAt: Date;
}

export type RecordResult =
  | { kind: 'recorded'; activities: RecordedActivity[] }
  | { kind: 'unknown_label'; message: string }
  | { kind: 'lead_not_found' }
  | { kind: 'outcome_exists'; outcome: string };

interface LockedLead {
  id: string;
  account_id: string;
  outcome: string | null;
}

/**
 * Records an activity inside the caller's transaction. `accountId`, when given,
 * scopes the lead (the API: another account's lead is not found). The caller
 * commits, then calls `announce` with the recorded ids.
 */
export async function recordActivityInTx(
  tx: Tx,
  input: NewActivity,
  scope: { accountId?: string } = {},
): Promise<RecordResult> {
  const entry = catalogEntry(input.type, input.label);
  if (!entry) {
    return {
      kind: 'unknown_label',
      message: `"${input.label}" is not an ${input.type} label of the activity catalog (GET /activity_catalog).`,
    };
  }
  // The lead's row lock serialises everything that records on one lead, so the
  // outcome check below cannot race another outcome.
  const [lead] = await tx.$queryRaw<LockedLead[]>`
    SELECT id, account_id, outcome FROM leads WHERE id = ${input.leadId} FOR UPDATE`;
  if (!lead || (scope.accountId !== undefined && lead.account_id !== scope.accountId)) {
    return { kind: 'lead_not_found' };
  }
  if (entry.type === 'outcome' && lead.outcome !== null) {
    return { kind: 'outcome_exists', outcome: lead.outcome };
  }

  const enrollment = await tx.enrollment.findUnique({
    where: { leadId: lead.id },
    select: { id: true, status: true },
  });
  const enrollmentId = input.enrollmentId ?? enrollment?.id ?? null;
  const recorded: RecordedActivity[] = [];
  const record = async (activity: NewActivity & { note: string }) => {
    recorded.push(await insertActivity(tx, lead.account_id, { ...activity, enrollmentId }));
  };
  // Ends an active play: no later step runs (a step job re-reads the enrollment
  // and finds it stopped).
  const endPlay = async () => {
    if (enrollment?.status !== 'active') return false;
    await tx.enrollment.update({
      where: { id: enrollment.id },
      data: { status: 'stopped', nextRunAt: null },
    });
    return true;
  };

  if (entry.type === 'outcome') {
    // Any outcome stops the play, and says so first.
    if (await endPlay()) {
      await record({
        leadId: lead.id,
        type: 'event',
        label: 'stopped',
        data: { reason: input.label },
        note: `Outreach stopped: outcome ${input.label}.`,
      });
    }
    await tx.lead.update({
      where: { id: lead.id },
      data: { outcome: input.label, ...(input.label === 'opted_out' ? { optedOut: true } : {}) },
    });
  }
  await record({ ...input, note: input.note ?? entry.meaning });

  // A reply of STOP (or a synonym) ends outreach at once (CONTRACT §4):
  // message_received, stopped, then the outcome opted_out, in this same
  // transaction, so no step can run between the reply and the stop. `stopped` is
  // recorded even when no play is running, so subscribers always see the opt-out;
  // a lead that already has an outcome gets no second one, but is opted out.
  if (input.label === 'message_received' && isStopReply(String(input.data?.body ?? ''))) {
    await endPlay();
    await record({
      leadId: lead.id,
      type: 'event',
      label: 'stopped',
      data: { reason: 'opted_out' },
      note: 'Outreach stopped: the lead replied STOP.',
    });
    await tx.lead.update({
      where: { id: lead.id },
      data: { optedOut: true, ...(lead.outcome === null ? { outcome: 'opted_out' } : {}) },
    });
    if (lead.outcome === null) {
      await record({
        leadId: lead.id,
        type: 'outcome',
        label: 'opted_out',
        note: 'The lead replied STOP.',
      });
    }
  }
  return { kind: 'recorded', activities: recorded };
}

async function insertActivity(
  tx: Tx,
  accountId: string,
  input: NewActivity & { note: string; enrollmentId: string | null },
): Promise<RecordedActivity> {
  const id = newId('activity');
  const occurredAt = new Date();
  await tx.activity.create({
    data: {
      id,
      accountId,
      leadId: input.leadId,
      enrollmentId: input.enrollmentId,
      activityType: input.type,
      activityLabel: input.label,
      note: input.note,
      data: (input.data ?? {}) as Prisma.InputJsonObject,
      occurredAt,
    },
  });
  await tx.outbox.create({ data: { topic: 'activity', payload: { activity_id: id } } });
  return { id, leadId: input.leadId, type: input.type, label: input.label, occurredAt };
}

/**
 * Enqueues the activity jobs of committed activities (the fast path). A failure
 * is logged, not thrown: the outbox rows committed with the activities are
 * relayed once Redis is back.
 */
export function announce(
  queues: QueueSet,
  logger: Logger,
  activities: readonly RecordedActivity[],
): void {
  for (const activity of activities) {
    queues.enqueue('activity', { activity_id: activity.id }).catch((err: unknown) => {
      logger.warn(
        { err, activity_id: activity.id },
        'activity enqueue failed; the outbox relay will send it',
      );
    });
  }
}

/** recordActivityInTx in a transaction of its own, then announce. */
export class ActivityRecorder {
  constructor(private readonly deps: { prisma: PrismaClient; queues: QueueSet; logger: Logger }) {}

  async record(input: NewActivity, scope: { accountId?: string } = {}): Promise<RecordResult> {
    const result = await this.deps.prisma.$transaction((tx) =>
      recordActivityInTx(tx, input, scope),
    );
    if (result.kind === 'recorded') announce(this.deps.queues, this.deps.logger, result.activities);
    return result;
  }
}
