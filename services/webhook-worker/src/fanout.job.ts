import { newId } from '@leadhook/db';
import { kickChain } from './chain.js';
import { jittered, type WebhookDeps } from './webhook.deps.js';

export type FanOutResult =
  | { kind: 'fanned_out'; activities: number; deliveries: number; subscriptions: number }
  | { kind: 'already_done' }
  | { kind: 'activity_not_found' };

interface OpenActivity {
  outbox_id: bigint;
  id: string;
  activity_type: string;
  activity_label: string;
}

/** True when a subscription's label list selects `label` (`["*"]` = all). */
export function selects(labels: readonly string[], label: string): boolean {
  return labels.includes('*') || labels.includes(label);
}

/**
 * Fans an activity out to its subscriptions (CONTRACT §3): in ONE transaction, a
 * delivery row per enabled, undeleted subscription of the lead's playbook or of
 * the whole account that selected the label, and the activity's outbox row
 * closed (DESIGN.md: the consumer closes it once the effect exists). Then the
 * heads of the touched chains are enqueued.
 *
 * Running twice creates nothing new: the unique (activity_id, subscription_id)
 * with skipDuplicates, and a closed outbox row means "already fanned out".
 *
 * Ordering: activity jobs run concurrently, so the fan-out of a lead's third
 * activity may run before its first. Fan-outs of one lead are serialized by a
 * transaction-scoped advisory lock, and each one also fans out the lead's
 * earlier activities whose outbox rows are still open. So when a chain's head is
 * chosen, every earlier activity of the lead already has its delivery.
 * Activities are announced after their commit, so those earlier rows are visible.
 */
export async function fanOut(deps: WebhookDeps, activityId: string): Promise<FanOutResult> {
  const { prisma } = deps;
  const result = await prisma.$transaction(async (tx) => {
    const activity = await tx.activity.findUnique({
      where: { id: activityId },
      select: {
        id: true,
        accountId: true,
        leadId: true,
        occurredAt: true,
        lead: { select: { playbookId: true } },
      },
    });
    if (!activity) {
      await tx.$executeRaw`
        UPDATE outbox SET done_at = now()
         WHERE topic = 'activity' AND done_at IS NULL
           AND payload = jsonb_build_object('activity_id', ${activityId}::text)`;
      return { kind: 'activity_not_found' as const };
    }
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${activity.leadId}, 0))`;
    // This activity and the lead's earlier ones not fanned out yet (open outbox rows).
    // LATERAL makes the plan start from the lead's activities (a handful, by
    // activities_lead_id_occurred_at_idx) and probe each one's open row through
    // outbox_open_activity_idx; joined the other way round it read every open
    // activity row per fan-out, quadratic in a backlog (bench/webhooks).
    const open = await tx.$queryRaw<OpenActivity[]>`
      SELECT o.outbox_id, a.id, a.activity_type, a.activity_label
        FROM activities a
        CROSS JOIN LATERAL (
          SELECT b.id AS outbox_id FROM outbox b
           WHERE b.topic = 'activity' AND b.done_at IS NULL
             AND b.payload->>'activity_id' = a.id
           FOR UPDATE) o
       WHERE a.lead_id = ${activity.leadId}
         AND (a.occurred_at, a.id) <= (${activity.occurredAt}::timestamptz, ${activity.id}::text)
       ORDER BY a.occurred_at, a.id`;
    if (!open.some((row) => row.id === activity.id)) return { kind: 'already_done' as const };

    const subscriptions = await tx.subscription.findMany({
      where: {
        accountId: activity.accountId,
        enabled: true,
        deletedAt: null,
        OR: [{ playbookId: activity.lead.playbookId }, { playbookId: null }],
      },
      select: { id: true, events: true, outcomes: true },
    });
    const now = deps.now();
    const rows = open.flatMap((a) =>
      subscriptions
        .filter((s) =>
          selects(a.activity_type === 'outcome' ? s.outcomes : s.events, a.activity_label),
        )
        .map((s) => ({
          id: newId('delivery'),
          activityId: a.id,
          subscriptionId: s.id,
          leadId: activity.leadId,
          nextAttemptAt: new Date(
            now.getTime() + jittered(deps.retryScheduleMs[0] ?? 0, deps.random),
          ),
        })),
    );
    const created =
      rows.length > 0
        ? (await tx.delivery.createMany({ data: rows, skipDuplicates: true })).count
        : 0;
    await tx.outbox.updateMany({
      where: { id: { in: open.map((row) => row.outbox_id) } },
      data: { doneAt: now },
    });
    return {
      kind: 'fanned_out' as const,
      activities: open.length,
      deliveries: created,
      leadId: activity.leadId,
      subscriptionIds: [...new Set(rows.map((r) => r.subscriptionId))],
    };
  });
  if (result.kind !== 'fanned_out') return result;
  await Promise.all(result.subscriptionIds.map((id) => kickChain(deps, id, result.leadId)));
  return {
    kind: 'fanned_out',
    activities: result.activities,
    deliveries: result.deliveries,
    subscriptions: result.subscriptionIds.length,
  };
}
