import { randomBytes } from 'node:crypto';
import { type ConsentProvider, consentProvider } from '@leadhook/contracts';
import { newId, type PrismaClient } from '@leadhook/db';
import { aLead, aSource, type LeadOwner } from '@leadhook/testkit';

export type { LeadOwner } from '@leadhook/testkit';

/**
 * Leads, submissions and enrollments written straight through Prisma, in the
 * shape intake stores them (intake is another service; the api tests do not
 * import it). Factories, not fixtures: every call makes fresh rows.
 */

let phoneCounter = 0;

/** A unique US number per call, E.164, as intake stores it. */
function nextPhone(): string {
  phoneCounter += 1;
  return `+1512${String(2_000_000 + phoneCounter).padStart(7, '0')}`;
}

export interface LeadOverrides {
  externalId?: string | null;
  extra?: Record<string, string | number | boolean | null>;
  consentIp?: string | null;
  consentUserAgent?: string | null;
  receivedAt?: Date;
  firstName?: string;
  tcpaOptInToken?: string;
  /** What intake stored; by default the provider the token's shape shows, as intake does. */
  consentProvider?: ConsentProvider | null;
  /** E.164, as intake stores it. */
  phone?: string;
  email?: string;
  /** The lead's outcome label (the column only: no outcome activity). */
  outcome?: string | null;
}

/** A lead as intake accepts it, with its accepted submission. */
export async function createLead(
  prisma: PrismaClient,
  owner: LeadOwner,
  overrides: LeadOverrides = {},
): Promise<string> {
  const id = newId('lead');
  const phone = overrides.phone ?? nextPhone();
  const firstName = overrides.firstName ?? 'Ada';
  const receivedAt = overrides.receivedAt ?? new Date();
  const fields = {
    first_name: firstName,
    last_name: 'Lovelace',
    email: overrides.email ?? 'ada@example.com',
    phone,
    current_insurance_carrier: 'Acme Mutual',
    current_insurance_coverage: 'full',
    current_residence_address: '1 Main St',
    current_residence_city: 'Austin',
    current_residence_state: 'TX',
    current_residence_zip: '78701',
    date_of_birth: '1980-04-02',
    gender: 'Female ',
    marital_status: 'Married',
    credit_rating: 'Good',
    tcpa_opt_in_token: overrides.tcpaOptInToken ?? `tok_${randomBytes(6).toString('hex')}`,
    tcpa_opt_in_url: 'https://forms.example.com/quote',
  };
  const source = await prisma.marketingSource.findUniqueOrThrow({ where: { id: owner.sourceId } });
  await aLead(prisma, owner, {
    id,
    sourceName: source.name,
    phone,
    email: fields.email,
    firstName,
    lastName: fields.last_name,
    fields,
    canonical: { gender: 'female', marital_status: 'married', credit_rating: 'good' },
    extra: overrides.extra ?? {},
    externalId: overrides.externalId ?? null,
    tcpaOptInToken: fields.tcpa_opt_in_token,
    tcpaOptInUrl: fields.tcpa_opt_in_url,
    consentProvider:
      overrides.consentProvider === undefined
        ? consentProvider(fields.tcpa_opt_in_token)
        : overrides.consentProvider,
    consentIp: overrides.consentIp ?? null,
    consentUserAgent: overrides.consentUserAgent ?? null,
    receivedAt,
    outcome: overrides.outcome ?? null,
  });
  await prisma.submission.create({
    data: {
      id: newId('submission'),
      accountId: owner.accountId,
      sourceId: owner.sourceId,
      result: 'accepted',
      leadId: id,
      externalId: overrides.externalId ?? null,
      createdAt: receivedAt,
    },
  });
  return id;
}

/** A later submission of the same phone, recorded against the original lead. */
export async function createDuplicateSubmission(
  prisma: PrismaClient,
  input: {
    accountId: string;
    sourceId: string;
    leadId: string;
    externalId?: string | null;
    receivedAt: Date;
  },
): Promise<string> {
  const id = newId('submission');
  await prisma.submission.create({
    data: {
      id,
      accountId: input.accountId,
      sourceId: input.sourceId,
      result: 'duplicate',
      leadId: input.leadId,
      externalId: input.externalId ?? null,
      createdAt: input.receivedAt,
    },
  });
  return id;
}

/** A source, a playbook and a lead of the account, for deliveries to point at. */
export async function createLeadOf(
  prisma: PrismaClient,
  accountId: string,
  playbookId: string,
): Promise<string> {
  const source = await aSource(prisma, { accountId, playbookId, name: 'Factory source' });
  return createLead(prisma, { accountId, sourceId: source.id, playbookId });
}
