import {
  CONSENT_PROVIDERS,
  type ConsentProvider,
  type Lead,
  type LeadDetail,
  leadSchema,
  PLAY_STATUSES,
  type Play,
} from '@leadhook/contracts';
import type { Prisma, PrismaClient } from '@leadhook/db';
import { presentActivity } from './activities.service.js';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
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
 * The account's leads, newest first. `sourceId` names one of the account's
 * sources (deleted ones too: their leads stay); any other id is not_found, the
 * same answer for another account's source as for none, so the list is no
 * oracle for other accounts' source ids.
 */
export async function listLeads(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
  filter: { sourceId?: string | undefined },
): Promise<{ kind: 'ok'; page: Page<Lead> } | { kind: 'source_not_found' }> {
  if (filter.sourceId !== undefined) {
    const source = await prisma.marketingSource.findFirst({
      where: { id: filter.sourceId, accountId },
      select: { id: true },
    });
    if (!source) return { kind: 'source_not_found' };
  }
  const rows = await prisma.lead.findMany({
    ...keyset(page, {
      accountId,
      ...(filter.sourceId !== undefined ? { sourceId: filter.sourceId } : {}),
    }),
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
