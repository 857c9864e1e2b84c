import {
  CONSENT_PROVIDERS,
  type ConsentProvider,
  type Lead,
  type LeadDetail,
  leadSchema,
  PLAY_STATUSES,
  type Play,
} from '@leadhook/contracts';
import { Prisma, type PrismaClient } from '@leadhook/db';
import { presentActivity } from './activities.service.js';
import { type Page, type PageRequest, pageOf } from './pagination.js';
import { storedValidator } from './validation.js';

/**
 * Leads are written by intake and the activity path; the management API only
 * reads them (docs/api.md, "Leads"). Another account's lead is not found.
 */

const leadInclude = {
  source: { select: { id: true, name: true } },
  playbook: { select: { id: true, name: true } },
  enrollment: { select: { id: true, status: true, currentStep: true, nextRunAt: true } },
} satisfies Prisma.LeadInclude;

type LeadRow = Prisma.LeadGetPayload<{ include: typeof leadInclude }>;
type EnrollmentRow = NonNullable<LeadRow['enrollment']>;

const validateFields = storedValidator(leadSchema.properties.fields);
const validateCanonical = storedValidator(leadSchema.properties.canonical);
const validateExtra = storedValidator(leadSchema.properties.extra);

/** Stored JSON was validated by intake; a row that no longer fits the schema is a bug, not a 4xx. */
function stored<T>(
  leadId: string,
  column: string,
  check: (value: unknown) => { ok: true; value: T } | { ok: false },
  value: unknown,
): T {
  const result = check(value);
  if (!result.ok) throw new Error(`lead ${leadId} has a stored ${column} that fails the schema`);
  return result.value;
}

function isPlayStatus(value: string): value is Play['status'] {
  return PLAY_STATUSES.some((s) => s === value);
}

function isConsentProvider(value: string): value is ConsentProvider {
  return CONSENT_PROVIDERS.some((p) => p === value);
}

/** The provider intake stored; the leads_consent_provider_check constraint keeps it in the enum. */
function storedProvider(row: LeadRow): ConsentProvider | null {
  const provider = row.consentProvider;
  if (provider === null || isConsentProvider(provider)) return provider;
  throw new Error(`lead ${row.id} has consent_provider ${provider}`);
}

function presentPlay(row: EnrollmentRow): Play {
  // The enrollments_status_check constraint keeps status inside the enum.
  if (!isPlayStatus(row.status)) throw new Error(`enrollment ${row.id} has status ${row.status}`);
  return {
    id: row.id,
    status: row.status,
    current_step: row.currentStep,
    next_run_at: row.nextRunAt?.toISOString() ?? null,
  };
}

export function presentLead(row: LeadRow): Lead {
  return {
    id: row.id,
    // The source's current name, like the playbook's: the object it refers to.
    // (Webhooks' lead_originators keep the name at acceptance, Lead.sourceName.)
    marketing_source: { id: row.source.id, name: row.source.name },
    playbook: { id: row.playbook.id, name: row.playbook.name },
    fields: stored(row.id, 'fields', validateFields, row.fields),
    canonical: stored(row.id, 'canonical', validateCanonical, row.canonical),
    extra: stored(row.id, 'extra', validateExtra, row.extra),
    external_id: row.externalId,
    opted_out: row.optedOut,
    outcome: row.outcome,
    play: row.enrollment ? presentPlay(row.enrollment) : null,
    consent: {
      tcpa_opt_in_token: row.tcpaOptInToken,
      // As intake recognised it when it accepted the lead, kept with the lead
      // (docs/api.md, "Leads").
      provider: storedProvider(row),
      tcpa_opt_in_url: row.tcpaOptInUrl,
      ip: row.consentIp,
      user_agent: row.consentUserAgent,
      received_at: row.receivedAt.toISOString(),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type LeadResult = { kind: 'ok'; lead: LeadDetail } | { kind: 'not_found' };

/**
 * What `GET /leads` narrows the list to (docs/api.md, "Leads"); a lead must match
 * every filter given. Values are already normalised: `phone` in E.164 as intake
 * stores it, `until` the first instant no longer included.
 */
export interface LeadFilter {
  sourceId?: string | undefined;
  outcome?: string | undefined;
  from?: Date | undefined;
  until?: Date | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  externalId?: string | undefined;
}

/**
 * The ids of one page of the account's leads matching `filter`, newest first:
 * keyset pagination as pagination.ts's keyset, in SQL because the email is
 * compared lower-cased on both sides, the form the index leads (account_id,
 * lower(email)) holds (Prisma's case-insensitive mode is an ILIKE, which no
 * btree index serves). Phone and external_id have their own (account_id, …)
 * indexes; outcome and the period filter the account's leads walked newest
 * first by leads (account_id, id), which stops at the page's last match.
 */
export function leadIdsSql(accountId: string, page: PageRequest, filter: LeadFilter): Prisma.Sql {
  const conditions = [Prisma.sql`account_id = ${accountId}`];
  if (filter.sourceId !== undefined) conditions.push(Prisma.sql`source_id = ${filter.sourceId}`);
  if (filter.outcome !== undefined) conditions.push(Prisma.sql`outcome = ${filter.outcome}`);
  if (filter.from !== undefined) {
    conditions.push(Prisma.sql`received_at >= ${filter.from.toISOString()}::timestamptz`);
  }
  if (filter.until !== undefined) {
    conditions.push(Prisma.sql`received_at < ${filter.until.toISOString()}::timestamptz`);
  }
  if (filter.phone !== undefined) conditions.push(Prisma.sql`phone = ${filter.phone}`);
  if (filter.email !== undefined)
    conditions.push(Prisma.sql`lower(email) = lower(${filter.email})`);
  if (filter.externalId !== undefined) {
    conditions.push(Prisma.sql`external_id = ${filter.externalId}`);
  }
  if (page.cursor !== undefined) conditions.push(Prisma.sql`id < ${page.cursor}`);
  return Prisma.sql`
    SELECT id FROM leads
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY id DESC
    LIMIT ${page.limit + 1}`;
}

/**
 * The account's leads, newest first, narrowed by `filter`. `sourceId` names one
 * of the account's sources (deleted ones too: their leads stay); any other id is
 * not_found, the same answer for another account's source as for none, so the
 * list is no oracle for other accounts' source ids.
 */
export async function listLeads(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
  filter: LeadFilter,
): Promise<{ kind: 'ok'; page: Page<Lead> } | { kind: 'source_not_found' }> {
  if (filter.sourceId !== undefined) {
    const source = await prisma.marketingSource.findFirst({
      where: { id: filter.sourceId, accountId },
      select: { id: true },
    });
    if (!source) return { kind: 'source_not_found' };
  }
  const ids = await prisma.$queryRaw<{ id: string }[]>(leadIdsSql(accountId, page, filter));
  // The page's rows by their ids, in the same order (a lead is never deleted on its own).
  const rows = await prisma.lead.findMany({
    where: { accountId, id: { in: ids.map((row) => row.id) } },
    orderBy: { id: 'desc' },
    include: leadInclude,
  });
  return { kind: 'ok', page: pageOf(rows, page, presentLead) };
}

/** The lead with its whole timeline (oldest first) and its duplicate attributions. */
export async function getLead(
  prisma: PrismaClient,
  accountId: string,
  id: string,
): Promise<LeadResult> {
  const row = await prisma.lead.findFirst({
    where: { id, accountId },
    include: {
      ...leadInclude,
      // Activities recorded in one transaction may share a millisecond; their ids
      // are monotonic, so the id breaks the tie in recording order.
      activities: { orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }] },
      submissions: {
        where: { result: 'duplicate' },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        include: { source: { select: { id: true, name: true } } },
      },
    },
  });
  if (!row) return { kind: 'not_found' };
  return {
    kind: 'ok',
    lead: {
      ...presentLead(row),
      activities: row.activities.map(presentActivity),
      duplicates: row.submissions.map((submission) => ({
        marketing_source: { id: submission.source.id, name: submission.source.name },
        external_id: submission.externalId,
        received_at: submission.createdAt.toISOString(),
      })),
    },
  };
}
