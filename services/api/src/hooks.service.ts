import {
  ACTIVITY_CATALOG,
  type ActivityType,
  type Hook,
  type HookCreate,
  type HookWithSecret,
  type SubscriptionWithSecret,
  type WebhookPayload,
} from '@leadhook/contracts';
import { newId, type PrismaClient } from '@leadhook/db';
import { payloadOf } from '@leadhook/webhooks';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import {
  createSubscription,
  type SubscriptionResult,
  type SubscriptionRow,
  type SubscriptionsContext,
} from './subscriptions.service.js';
import type { ErrorDetail } from './validation.js';

/**
 * REST hooks (docs/api.md, "REST hooks"): the subscribe/unsubscribe calls of
 * automation platforms. A hook is an activity subscription made with
 * created_via `hooks`: the same row, fan-out, signing, retries and URL rules as
 * one made by POST /subscriptions. /hooks lists and deletes only those; a 410
 * Gone from a hook's URL deletes it (webhook_disable), where it disables an
 * ordinary subscription.
 */

export const HOOKS = 'hooks';

/** How many of the account's newest leads GET /hooks/samples looks at for real activities. */
export const SAMPLE_LEADS = 200;
/** How many samples GET /hooks/samples answers at most. */
export const SAMPLE_COUNT = 3;

const playbookNotFound: ErrorDetail[] = [
  {
    field: 'playbook_id',
    code: 'not_found',
    message: 'playbook_id must name one of your playbooks (not deleted).',
  },
];

function presentHook(row: SubscriptionRow | SubscriptionWithSecret): Hook {
  if ('playbook_id' in row) {
    return {
      id: row.id,
      target_url: row.url,
      events: row.events,
      outcomes: row.outcomes,
      playbook_id: row.playbook_id,
      enabled: row.enabled,
      created_at: row.created_at,
    };
  }
  return {
    id: row.id,
    target_url: row.url,
    events: row.events,
    outcomes: row.outcomes,
    playbook_id: row.playbookId,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
  };
}

/** Subscribes `target_url`: a subscription made with created_via `hooks`. */
export async function createHook(
  ctx: SubscriptionsContext,
  accountId: string,
  input: HookCreate,
): Promise<SubscriptionResult<HookWithSecret>> {
  const result = await createSubscription(
    ctx,
    accountId,
    input.playbook_id ?? null,
    { url: input.target_url, events: input.events, outcomes: input.outcomes, enabled: true },
    HOOKS,
  );
  switch (result.kind) {
    case 'not_found':
      return { kind: 'invalid', details: playbookNotFound };
    case 'invalid':
      // The subscription's rules name its field `url`; a hook's is `target_url`.
      return {
        kind: 'invalid',
        details: result.details.map((d) => (d.field === 'url' ? { ...d, field: 'target_url' } : d)),
      };
    case 'ok':
      return {
        kind: 'ok',
        subscription: { ...presentHook(result.subscription), secret: result.subscription.secret },
      };
  }
}

/** A page of the account's hooks (only subscriptions made by POST /hooks), newest first. */
export async function listHooks(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
): Promise<Page<Hook>> {
  const rows = await prisma.subscription.findMany(
    keyset(page, { accountId, deletedAt: null, createdVia: HOOKS }),
  );
  return pageOf(rows, page, presentHook);
}

/** Unsubscribes: soft-deletes the hook as DELETE /subscriptions/{id} does. False when none. */
export async function deleteHook(
  prisma: PrismaClient,
  accountId: string,
  id: string,
): Promise<boolean> {
  const { count } = await prisma.subscription.updateMany({
    where: { id, accountId, deletedAt: null, createdVia: HOOKS },
    data: { deletedAt: new Date(), updatedAt: new Date() },
  });
  return count > 0;
}

/** The catalog's types of `label` (`interested` is both an event and an outcome). */
export function labelTypes(label: string): ActivityType[] {
  return ACTIVITY_CATALOG.filter((e) => e.label === label).map((e) => e.type);
}

/**
 * Up to SAMPLE_COUNT webhook bodies of `label`, newest first, built by the very
 * payloadOf the webhook worker signs and sends: the account's latest real
 * activities of the label (among its SAMPLE_LEADS newest leads, so the read
 * stays on indexes), or, when it has none, one synthetic activity.
 */
export async function hookSamples(
  prisma: PrismaClient,
  accountId: string,
  label: string,
  types: readonly ActivityType[],
  now: Date = new Date(),
): Promise<WebhookPayload[]> {
  const leads = await prisma.lead.findMany({
    where: { accountId },
    orderBy: { id: 'desc' },
    take: SAMPLE_LEADS,
    select: { id: true },
  });
  const activities =
    leads.length === 0
      ? []
      : await prisma.activity.findMany({
          where: {
            leadId: { in: leads.map((l) => l.id) },
            activityLabel: label,
            activityType: { in: [...types] },
          },
          orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
          take: SAMPLE_COUNT,
          include: {
            lead: {
              include: {
                source: { select: { id: true, name: true } },
                playbook: { select: { id: true, name: true } },
                enrollment: { select: { id: true } },
              },
            },
          },
        });
  if (activities.length > 0) {
    return activities.map(
      (a) =>
        payloadOf({
          activity: a,
          lead: { ...a.lead, enrollmentId: a.lead.enrollment?.id ?? null },
          source: a.lead.source,
          playbook: a.lead.playbook,
        }).payload,
    );
  }
  return [await syntheticSample(prisma, accountId, label, types[0] ?? 'event', now)];
}

/** Label-specific `data` of the synthetic sample, as the workers write it. */
function syntheticData(label: string, now: Date): Record<string, unknown> {
  switch (label) {
    case 'message_received':
      return { body: 'Yes, I am interested. Can you call me tomorrow?' };
    case 'contact_deferred':
      return {
        step: 0,
        until: new Date(now.getTime() + 10 * 3600_000).toISOString(),
        reason: 'quiet_hours',
      };
    default:
      return {};
  }
}

/**
 * One realistic activity of `label`, made up (nothing is stored): named after
 * the account's newest playbook and source when it has them.
 */
async function syntheticSample(
  prisma: PrismaClient,
  accountId: string,
  label: string,
  type: ActivityType,
  now: Date,
): Promise<WebhookPayload> {
  const [source, playbook] = await Promise.all([
    prisma.marketingSource.findFirst({
      where: { accountId, deletedAt: null },
      orderBy: { id: 'desc' },
      select: { id: true, name: true },
    }),
    prisma.playbook.findFirst({
      where: { accountId, deletedAt: null },
      orderBy: { id: 'desc' },
      select: { id: true, name: true },
    }),
  ]);
  const createdAt = new Date(now.getTime() - 5 * 60_000);
  const meaning = ACTIVITY_CATALOG.find((e) => e.label === label && e.type === type)?.meaning;
  const enrollmentId = newId('enrollment');
  return payloadOf({
    activity: {
      id: newId('activity'),
      activityType: type,
      activityLabel: label,
      occurredAt: now,
      note: meaning ?? label,
      data: syntheticData(label, now) as Parameters<typeof payloadOf>[0]['activity']['data'],
      enrollmentId,
    },
    lead: {
      id: newId('lead'),
      externalId: 'EXT-1001',
      sourceName: source?.name ?? 'Acme Leads',
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      optedOut: label === 'opted_out',
      createdAt,
      extra: { campaign: 'spring' },
      enrollmentId,
    },
    source: source ?? { id: newId('source'), name: 'Acme Leads' },
    playbook: playbook ?? { id: newId('playbook'), name: 'Auto quotes' },
  }).payload;
}
