import {
  CONSENT_REQUIREMENTS,
  type ConsentRequirement,
  type MarketingSource,
  type MarketingSourceCreate,
  type MarketingSourceUpdate,
  postUrlOf,
  SOURCE_STATUSES,
  SOURCE_TYPES,
  type SourceStatus,
  type SourceType,
} from '@leadhook/contracts';
import { generateIntakeKey, newId, type Prisma, type PrismaClient } from '@leadhook/db';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import { live } from './scope.js';
import type { ErrorDetail } from './validation.js';

export interface SourcesContext {
  prisma: PrismaClient;
  /** The base of every post_url (PUBLIC_BASE_URL), without a trailing slash. */
  publicBaseUrl: string;
}

interface SourceRow {
  id: string;
  accountId: string;
  playbookId: string;
  name: string;
  sourceType: string;
  status: string;
  intakeKey: string;
  rateLimit: number | null;
  redirectUrl: string | null;
  consentRequired: string;
  createdAt: Date;
  updatedAt: Date;
}

function isSourceType(value: string): value is SourceType {
  return SOURCE_TYPES.some((t) => t === value);
}

function isConsentRequirement(value: string): value is ConsentRequirement {
  return CONSENT_REQUIREMENTS.some((c) => c === value);
}

function isSourceStatus(value: string): value is SourceStatus {
  return SOURCE_STATUSES.some((s) => s === value);
}

export function presentSource(publicBaseUrl: string, row: SourceRow): MarketingSource {
  // The database CHECK constraints keep these columns inside the enums.
  if (
    !isSourceType(row.sourceType) ||
    !isSourceStatus(row.status) ||
    !isConsentRequirement(row.consentRequired)
  ) {
    throw new Error(`marketing source ${row.id} has an out-of-contract type, status or consent`);
  }
  return {
    id: row.id,
    name: row.name,
    source_type: row.sourceType,
    playbook_id: row.playbookId,
    status: row.status,
    rate_limit: row.rateLimit,
    redirect_url: row.redirectUrl,
    consent_required: row.consentRequired,
    post_url: postUrlOf(publicBaseUrl, row.accountId, row.intakeKey),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type SourceResult = { kind: 'ok'; source: MarketingSource } | { kind: 'not_found' };
export type SourceWriteResult = SourceResult | { kind: 'invalid'; details: ErrorDetail[] };

const playbookNotFound: ErrorDetail[] = [
  {
    field: 'playbook_id',
    code: 'not_found',
    message: 'playbook_id must name one of your playbooks (not deleted).',
  },
];

/**
 * Locks the account's live playbook FOR SHARE for the rest of the transaction, so a
 * concurrent delete of it (FOR UPDATE in playbooks.service) waits and then sees
 * this source. False when there is no such playbook.
 */
async function lockLivePlaybook(
  tx: Prisma.TransactionClient,
  accountId: string,
  playbookId: string,
): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM playbooks
    WHERE id = ${playbookId} AND account_id = ${accountId} AND deleted_at IS NULL
    FOR SHARE`;
  return rows.length === 1;
}

export async function createSource(
  ctx: SourcesContext,
  accountId: string,
  input: MarketingSourceCreate,
): Promise<SourceWriteResult> {
  return ctx.prisma.$transaction(async (tx): Promise<SourceWriteResult> => {
    if (!(await lockLivePlaybook(tx, accountId, input.playbook_id))) {
      return { kind: 'invalid', details: playbookNotFound };
    }
    const row = await tx.marketingSource.create({
      data: {
        id: newId('source'),
        accountId,
        playbookId: input.playbook_id,
        name: input.name,
        sourceType: input.source_type,
        status: input.status ?? 'active',
        intakeKey: generateIntakeKey(),
        rateLimit: input.rate_limit ?? null,
        redirectUrl: input.redirect_url ?? null,
        consentRequired: input.consent_required ?? 'any',
      },
    });
    return { kind: 'ok', source: presentSource(ctx.publicBaseUrl, row) };
  });
}

export async function listSources(
  ctx: SourcesContext,
  accountId: string,
  page: PageRequest,
): Promise<Page<MarketingSource>> {
  const rows = await ctx.prisma.marketingSource.findMany(
    keyset(page, { accountId, deletedAt: null }),
  );
  return pageOf(rows, page, (row) => presentSource(ctx.publicBaseUrl, row));
}

export async function getSource(
  ctx: SourcesContext,
  accountId: string,
  id: string,
): Promise<SourceResult> {
  const row = await ctx.prisma.marketingSource.findFirst({ where: live(accountId, id) });
  return row
    ? { kind: 'ok', source: presentSource(ctx.publicBaseUrl, row) }
    : { kind: 'not_found' };
}

export async function updateSource(
  ctx: SourcesContext,
  accountId: string,
  id: string,
  input: MarketingSourceUpdate,
): Promise<SourceWriteResult> {
  return ctx.prisma.$transaction(async (tx): Promise<SourceWriteResult> => {
    const existing = await tx.marketingSource.findFirst({
      where: live(accountId, id),
      select: { id: true },
    });
    if (!existing) return { kind: 'not_found' };
    if (
      input.playbook_id !== undefined &&
      !(await lockLivePlaybook(tx, accountId, input.playbook_id))
    ) {
      return { kind: 'invalid', details: playbookNotFound };
    }
    const row = await tx.marketingSource.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.source_type !== undefined ? { sourceType: input.source_type } : {}),
        ...(input.playbook_id !== undefined ? { playbookId: input.playbook_id } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.rate_limit !== undefined ? { rateLimit: input.rate_limit } : {}),
        ...(input.redirect_url !== undefined ? { redirectUrl: input.redirect_url } : {}),
        ...(input.consent_required !== undefined
          ? { consentRequired: input.consent_required }
          : {}),
      },
    });
    return { kind: 'ok', source: presentSource(ctx.publicBaseUrl, row) };
  });
}

/** Soft delete: the URL stops working at once; leads keep pointing at the source. */
export async function deleteSource(
  ctx: SourcesContext,
  accountId: string,
  id: string,
): Promise<{ kind: 'deleted' } | { kind: 'not_found' }> {
  const { count } = await ctx.prisma.marketingSource.updateMany({
    where: live(accountId, id),
    data: { deletedAt: new Date() },
  });
  return count === 1 ? { kind: 'deleted' } : { kind: 'not_found' };
}

/**
 * A new intake key in one statement: the old post_url stops matching any source
 * at once (intake never caches keys: a rotated URL stops at once).
 */
export async function rotateSourceUrl(
  ctx: SourcesContext,
  accountId: string,
  id: string,
): Promise<SourceResult> {
  const { count } = await ctx.prisma.marketingSource.updateMany({
    where: live(accountId, id),
    data: { intakeKey: generateIntakeKey(), keyRotatedAt: new Date() },
  });
  if (count === 0) return { kind: 'not_found' };
  return getSource(ctx, accountId, id);
}
