import { type SubscriptionTestResult, TEST_LABEL } from '@leadhook/contracts';
import { newId, type PrismaClient } from '@leadhook/db';
import { deliver } from '@leadhook/webhooks';
import { findSubscription, type SubscriptionRow, signingSecrets } from './subscriptions.service.js';

export interface SubscriptionTestContext {
  prisma: PrismaClient;
  allowPrivateTargets: boolean;
  /** WEBHOOK_TIMEOUT_MS: the same bound a real delivery has. */
  timeoutMs: number;
}

/** The test activity's own id: an act_ id that names no stored activity. */
export function testActivityId(): string {
  return newId('activity').replace(/^act_/, 'act_test_');
}

/**
 * The payload of a test delivery: the shape of every delivery (docs/webhooks.md, "Test sends"), with
 * activity_label `test`, empty lead fields and no data, so a receiver exercises
 * its parsing and signature check without a lead.
 */
async function testPayload(prisma: PrismaClient, row: SubscriptionRow, id: string, now: Date) {
  const playbook =
    row.playbookId === null
      ? null
      : await prisma.playbook.findUnique({
          where: { id: row.playbookId },
          select: { id: true, name: true },
        });
  const occurredAt = now.toISOString();
  return {
    id,
    activity_type: 'event',
    activity_label: TEST_LABEL,
    occurred_at: occurredAt,
    lead_originators: [],
    lead_id: null,
    marketing_source: null,
    playbook,
    data: {},
    activity_play_id: null,
    activity_note: 'A test delivery from leadhook.',
    activity_created_at: occurredAt,
    lead_first_name: null,
    lead_last_name: null,
    lead_email: null,
    lead_opted_out: false,
    lead_created_at: null,
    lead_additional_info: {},
  };
}

/**
 * Sends a signed test delivery now, through the same deliver() (signature, SSRF
 * guard, timeout) as the webhook worker, and reports what the subscriber
 * answered. Nothing is stored and nothing is retried: the account sees the
 * answer at once. A disabled subscription can be tested too (that is how one
 * checks a fix before re-enabling it).
 */
export async function sendTestDelivery(
  ctx: SubscriptionTestContext,
  accountId: string,
  subscriptionId: string,
  now: Date = new Date(),
): Promise<{ kind: 'ok'; result: SubscriptionTestResult } | { kind: 'not_found' }> {
  const row = await findSubscription(ctx.prisma, accountId, subscriptionId);
  if (!row) return { kind: 'not_found' };
  const id = testActivityId();
  const body = JSON.stringify(await testPayload(ctx.prisma, row, id, now));
  const answer = await deliver({
    url: row.url,
    body,
    id,
    secrets: signingSecrets(row, now),
    timeoutMs: ctx.timeoutMs,
    allowPrivateTargets: ctx.allowPrivateTargets,
  });
  return {
    kind: 'ok',
    result: {
      ok: answer.ok,
      status_code: answer.statusCode,
      latency_ms: Math.max(0, Math.round(answer.durationMs)),
      error: answer.error,
      response_body: answer.responseBody,
    },
  };
}
