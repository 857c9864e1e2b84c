import type {
  Subscription,
  SubscriptionCreate,
  SubscriptionUpdate,
  SubscriptionWithSecret,
} from '@leadhook/contracts';
import { newId, type PrismaClient } from '@leadhook/db';
import { generateSecret } from '@leadhook/webhooks';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import { live } from './scope.js';
import { selectionProblems, urlProblems } from './subscription-rules.js';
import type { ErrorDetail } from './validation.js';

export interface SubscriptionsContext {
  prisma: PrismaClient;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: lets a URL name a private or loopback host. */
  allowPrivateTargets: boolean;
}

/** How long the previous secret keeps signing after a rotation (Standard Webhooks' overlap). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/** Set when the account itself turns a subscription off (the worker sets its own reasons). */
export const MANUAL_DISABLE_REASON = 'manual';

/** A subscription row as read here. */
export interface SubscriptionRow {
  id: string;
  accountId: string;
  playbookId: string | null;
  url: string;
  events: string[];
  outcomes: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledCode: string | null;
  disabledAt: Date | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
  createdVia: string;
  createdAt: Date;
  updatedAt: Date;
}

const DISABLED_CODES = ['manual', 'gone', 'failing'] as const;

/** The stored code as the API's enum; a code it does not know reads as null (enabled rows have none). */
function disabledCode(code: string | null): Subscription['disabled_code'] {
  return DISABLED_CODES.find((c) => c === code) ?? null;
}

/** The API shape of a row: never the secret (docs/api.md, "Subscriptions"). */
export function presentSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    playbook_id: row.playbookId,
    url: row.url,
    events: row.events,
    outcomes: row.outcomes,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    disabled_code: disabledCode(row.disabledCode),
    disabled_at: row.disabledAt?.toISOString() ?? null,
    failing_since: row.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: row.previousSecretExpiresAt?.toISOString() ?? null,
    created_via: row.createdVia === 'hooks' ? 'hooks' : 'api',
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Only create and rotate_secret answer with the secret. */
function presentWithSecret(row: SubscriptionRow): SubscriptionWithSecret {
  return { ...presentSubscription(row), secret: row.secret };
}

/**
 * The secrets a delivery is signed with now: the current one, and the previous
 * one while its overlap lasts, so a receiver still on the old secret verifies.
 */
export function signingSecrets(row: SubscriptionRow, now: Date = new Date()): string[] {
  const previousValid =
    row.previousSecret !== null &&
    row.previousSecretExpiresAt !== null &&
    row.previousSecretExpiresAt.getTime() > now.getTime();
  return previousValid && row.previousSecret !== null
    ? [row.secret, row.previousSecret]
    : [row.secret];
}

export type SubscriptionResult<T> =
  | { kind: 'ok'; subscription: T }
  | { kind: 'not_found' }
  | { kind: 'invalid'; details: ErrorDetail[] };

/** The account's live subscription, or null (another account's or a deleted one alike). */
export function findSubscription(
  prisma: PrismaClient,
  accountId: string,
  id: string,
): Promise<SubscriptionRow | null> {
  return prisma.subscription.findFirst({ where: live(accountId, id) });
}

async function livePlaybookExists(prisma: PrismaClient, accountId: string, playbookId: string) {
  const playbook = await prisma.playbook.findFirst({
    where: { id: playbookId, accountId, deletedAt: null },
    select: { id: true },
  });
  return playbook !== null;
}

/**
 * A subscription of one playbook, or of the whole account when `playbookId` is
 * null (every playbook, as the automation-platform hooks make).
 */
export async function createSubscription(
  ctx: SubscriptionsContext,
  accountId: string,
  playbookId: string | null,
  input: SubscriptionCreate,
  createdVia: 'api' | 'hooks' = 'api',
): Promise<SubscriptionResult<SubscriptionWithSecret>> {
  if (playbookId !== null && !(await livePlaybookExists(ctx.prisma, accountId, playbookId))) {
    return { kind: 'not_found' };
  }
  const events = input.events ?? [];
  const outcomes = input.outcomes ?? [];
  const details = [
    ...urlProblems(input.url, ctx.allowPrivateTargets),
    ...selectionProblems(events, outcomes),
  ];
  if (details.length > 0) return { kind: 'invalid', details };
  const enabled = input.enabled ?? true;
  const row = await ctx.prisma.subscription.create({
    data: {
      id: newId('subscription'),
      accountId,
      playbookId,
      url: input.url,
      events,
      outcomes,
      enabled,
      ...(enabled
        ? {}
        : {
            disabledCode: 'manual',
            disabledReason: MANUAL_DISABLE_REASON,
            disabledAt: new Date(),
          }),
      secret: generateSecret(),
      createdVia,
    },
  });
  return { kind: 'ok', subscription: presentWithSecret(row) };
}

/**
 * A page of subscriptions, newest first: a playbook's own (404 when the playbook
 * is not a live one of the account), or with `playbookId` null every
 * subscription of the account, account-wide and per-playbook alike.
 */
export async function listSubscriptions(
  ctx: SubscriptionsContext,
  accountId: string,
  playbookId: string | null,
  page: PageRequest,
  accountWideOnly = false,
): Promise<{ kind: 'ok'; page: Page<Subscription> } | { kind: 'not_found' }> {
  if (playbookId !== null && !(await livePlaybookExists(ctx.prisma, accountId, playbookId))) {
    return { kind: 'not_found' };
  }
  const rows = await ctx.prisma.subscription.findMany(
    keyset(page, {
      accountId,
      deletedAt: null,
      ...(playbookId !== null ? { playbookId } : {}),
      ...(accountWideOnly ? { playbookId: null } : {}),
    }),
  );
  return { kind: 'ok', page: pageOf(rows, page, presentSubscription) };
}

export async function getSubscription(
  ctx: SubscriptionsContext,
  accountId: string,
  id: string,
): Promise<SubscriptionResult<Subscription>> {
  const row = await findSubscription(ctx.prisma, accountId, id);
  return row ? { kind: 'ok', subscription: presentSubscription(row) } : { kind: 'not_found' };
}

/**
 * Runs `change` on the account's live subscription locked FOR UPDATE, so two
 * concurrent writes cannot each pass the checks and together break them (one
 * PATCH emptying events while another empties outcomes).
 */
function withLockedSubscription<T>(
  prisma: PrismaClient,
  accountId: string,
  id: string,
  change: (row: SubscriptionRow, tx: Pick<PrismaClient, 'subscription'>) => Promise<T>,
): Promise<T | { kind: 'not_found' }> {
  return prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM subscriptions
      WHERE id = ${id} AND account_id = ${accountId} AND deleted_at IS NULL
      FOR UPDATE`;
    if (locked.length === 0) return { kind: 'not_found' as const };
    const row = await tx.subscription.findUniqueOrThrow({ where: { id } });
    return change(row, tx);
  });
}

export async function updateSubscription(
  ctx: SubscriptionsContext,
  accountId: string,
  id: string,
  input: SubscriptionUpdate,
): Promise<SubscriptionResult<Subscription>> {
  return withLockedSubscription(
    ctx.prisma,
    accountId,
    id,
    async (row, tx): Promise<SubscriptionResult<Subscription>> => {
      const events = input.events ?? row.events;
      const outcomes = input.outcomes ?? row.outcomes;
      const details = [
        ...(input.url !== undefined ? urlProblems(input.url, ctx.allowPrivateTargets) : []),
        ...selectionProblems(events, outcomes),
      ];
      if (details.length > 0) return { kind: 'invalid', details };
      // Re-enabling starts afresh: the reason and the failure clock belong to the
      // episode that ended. Disabling keeps an earlier reason (a 410 stays a 410).
      const enabling = input.enabled === true && !row.enabled;
      const disabling = input.enabled === false && row.enabled;
      const updated = await tx.subscription.update({
        where: { id },
        data: {
          ...(input.url !== undefined ? { url: input.url } : {}),
          events,
          outcomes,
          ...(enabling
            ? {
                enabled: true,
                disabledCode: null,
                disabledReason: null,
                disabledAt: null,
                failingSince: null,
              }
            : {}),
          ...(disabling
            ? {
                enabled: false,
                disabledCode: 'manual',
                disabledReason: MANUAL_DISABLE_REASON,
                disabledAt: new Date(),
              }
            : {}),
          updatedAt: new Date(),
        },
      });
      return { kind: 'ok', subscription: presentSubscription(updated) };
    },
  );
}

/** Soft delete: the deliveries keep their subscription for the log; the id then answers 404. */
export async function deleteSubscription(
  ctx: SubscriptionsContext,
  accountId: string,
  id: string,
): Promise<{ kind: 'deleted' } | { kind: 'not_found' }> {
  const { count } = await ctx.prisma.subscription.updateMany({
    where: live(accountId, id),
    data: { deletedAt: new Date(), updatedAt: new Date() },
  });
  return count === 0 ? { kind: 'not_found' } : { kind: 'deleted' };
}

/**
 * A new secret; the current one becomes the previous secret and keeps signing
 * (Standard Webhooks: several space-separated signatures) for 24 h, so the
 * receiver can switch without dropping a delivery. A second rotation inside the
 * window drops the oldest secret.
 */
export async function rotateSubscriptionSecret(
  ctx: SubscriptionsContext,
  accountId: string,
  id: string,
  now: Date = new Date(),
): Promise<SubscriptionResult<SubscriptionWithSecret>> {
  return withLockedSubscription(ctx.prisma, accountId, id, async (row, tx) => {
    const updated = await tx.subscription.update({
      where: { id },
      data: {
        secret: generateSecret(),
        previousSecret: row.secret,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS),
        updatedAt: now,
      },
    });
    return { kind: 'ok' as const, subscription: presentWithSecret(updated) };
  });
}
