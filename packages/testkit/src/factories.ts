import { randomBytes } from 'node:crypto';
import {
  type CreatedAccount,
  createAccount,
  generateIntakeKey,
  newId,
  type Prisma,
  type PrismaClient,
} from '@leadhook/db';
import { generateSecret } from '@leadhook/webhooks';

/**
 * Rows written straight through Prisma, in the shape the services leave them:
 * a test of one service makes what another service would have written without
 * running it. Factories, not fixtures: every call makes fresh rows; the
 * defaults are plain and a test overrides what it is about.
 */

/** An account and its API key, made by the function the CLI uses. */
export function anAccount(prisma: PrismaClient, name = 'Test account'): Promise<CreatedAccount> {
  return createAccount(prisma, name);
}

export interface StepSpec {
  type: 'sms' | 'call';
  delay_seconds: number;
  template?: string;
}

/** A playbook of the account (no steps unless given). Returns its id. */
export async function aPlaybook(
  prisma: PrismaClient,
  spec: { accountId: string; name?: string; steps?: StepSpec[] },
): Promise<string> {
  const id = newId('playbook');
  await prisma.playbook.create({
    data: {
      id,
      accountId: spec.accountId,
      name: spec.name ?? 'Auto leads',
      ...(spec.steps
        ? {
            steps: spec.steps.map(
              (step): Prisma.InputJsonObject => ({
                type: step.type,
                delay_seconds: step.delay_seconds,
                ...(step.template === undefined ? {} : { template: step.template }),
              }),
            ),
          }
        : {}),
    },
  });
  return id;
}

export interface SourceSpec {
  accountId: string;
  playbookId: string;
  name?: string;
  status?: 'active' | 'paused';
  rateLimit?: number | null;
  redirectUrl?: string | null;
  consentRequired?: 'any' | 'recognised';
}

export interface TestSourceRow {
  id: string;
  /** The key in its post URL. */
  intakeKey: string;
}

/** A marketing source of the account feeding the playbook, live unless told. */
export async function aSource(prisma: PrismaClient, spec: SourceSpec): Promise<TestSourceRow> {
  const id = newId('source');
  const intakeKey = generateIntakeKey();
  await prisma.marketingSource.create({
    data: {
      id,
      accountId: spec.accountId,
      playbookId: spec.playbookId,
      name: spec.name ?? 'Acme Leads',
      sourceType: 'vendor',
      status: spec.status ?? 'active',
      intakeKey,
      rateLimit: spec.rateLimit ?? null,
      redirectUrl: spec.redirectUrl ?? null,
      consentRequired: spec.consentRequired ?? 'any',
    },
  });
  return { id, intakeKey };
}

export interface LeadOwner {
  accountId: string;
  playbookId: string;
  sourceId: string;
}

/** An account with a playbook and a source feeding it: what a lead hangs on. */
export async function aLeadOwner(
  prisma: PrismaClient,
  names: { account?: string; playbook?: string; source?: string } = {},
): Promise<LeadOwner & { apiKey: string; intakeKey: string }> {
  const { account_id: accountId, api_key: apiKey } = await anAccount(prisma, names.account);
  const playbookId = await aPlaybook(prisma, { accountId, ...nameOf(names.playbook) });
  const source = await aSource(prisma, { accountId, playbookId, ...nameOf(names.source) });
  return { accountId, apiKey, playbookId, sourceId: source.id, intakeKey: source.intakeKey };
}

const nameOf = (name: string | undefined) => (name === undefined ? {} : { name });

let phoneCounter = 0;

/** A San Francisco (415) number, E.164, unique within the test file. */
export function aPhone(): string {
  phoneCounter += 1;
  const line = (Number.parseInt(randomBytes(3).toString('hex'), 16) + phoneCounter) % 10_000;
  return `+1415555${String(line).padStart(4, '0')}`;
}

/** What a lead row holds besides its owner; a test overrides any column. */
export type LeadColumns = Partial<
  Omit<Prisma.LeadUncheckedCreateInput, 'accountId' | 'sourceId' | 'playbookId'>
>;

/**
 * A lead as intake stores an accepted one (without its submission or outbox
 * row): Ana Ruiz, a fresh (415) number, external id ext-7.
 */
export async function aLead(
  prisma: PrismaClient,
  owner: LeadOwner,
  columns: LeadColumns = {},
): Promise<{ id: string; phone: string }> {
  const id = columns.id ?? newId('lead');
  const phone = columns.phone ?? aPhone();
  await prisma.lead.create({
    data: {
      sourceName: 'Acme Leads',
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'Ruiz',
      fields: {},
      canonical: {},
      externalId: 'ext-7',
      tcpaOptInToken: 't',
      tcpaOptInUrl: 'https://example.com/consent',
      receivedAt: new Date(),
      ...columns,
      id,
      phone,
      accountId: owner.accountId,
      sourceId: owner.sourceId,
      playbookId: owner.playbookId,
    },
  });
  return { id, phone };
}

export interface ActivitySpec {
  accountId: string;
  leadId: string;
  label: string;
  type?: 'event' | 'outcome';
  note?: string;
  occurredAt?: Date;
  /** Also its open `activity` outbox row, as the activity path writes it (fan-out's input). */
  outbox?: boolean;
}

/** The lead's play, active by default (as the playbook worker leaves it after enrolling). */
export async function anEnrollment(
  prisma: PrismaClient,
  lead: { leadId: string; playbookId: string },
  overrides: {
    status?: 'active' | 'completed' | 'stopped';
    currentStep?: number;
    nextRunAt?: Date | null;
  } = {},
): Promise<string> {
  const id = newId('enrollment');
  await prisma.enrollment.create({
    data: {
      id,
      leadId: lead.leadId,
      playbookId: lead.playbookId,
      status: overrides.status ?? 'active',
      currentStep: overrides.currentStep ?? 0,
      nextRunAt:
        overrides.nextRunAt === undefined ? new Date(Date.now() + 60_000) : overrides.nextRunAt,
    },
  });
  return id;
}

/** An activity of the lead (an event unless told). Returns it as stored. */
export async function anActivity(
  prisma: PrismaClient,
  spec: ActivitySpec,
): Promise<{ id: string; occurredAt: Date }> {
  const activity = await prisma.activity.create({
    data: {
      id: newId('activity'),
      accountId: spec.accountId,
      leadId: spec.leadId,
      activityType: spec.type ?? 'event',
      activityLabel: spec.label,
      note: spec.note ?? spec.label,
      ...(spec.occurredAt ? { occurredAt: spec.occurredAt } : {}),
    },
  });
  if (spec.outbox) {
    // With the activity's created_at, as activity_insert writes it: the fan-out
    // looks for the row in that day's partition (docs/operations.md, "Outbox partitions").
    await prisma.outbox.create({
      data: {
        topic: 'activity',
        payload: { activity_id: activity.id },
        createdAt: activity.createdAt,
      },
    });
  }
  return { id: activity.id, occurredAt: activity.occurredAt };
}

export interface SubscriptionSpec {
  accountId: string;
  url: string;
  /** The playbook whose activities it gets; null: every playbook of the account. */
  playbookId?: string | null;
  events?: string[];
  outcomes?: string[];
  enabled?: boolean;
}

/** An activity subscription with a fresh secret, live unless told. */
export async function aSubscription(
  prisma: PrismaClient,
  spec: SubscriptionSpec,
): Promise<{ id: string; secret: string }> {
  const id = newId('subscription');
  const secret = generateSecret();
  await prisma.subscription.create({
    data: {
      id,
      accountId: spec.accountId,
      playbookId: spec.playbookId ?? null,
      url: spec.url,
      events: spec.events ?? ['*'],
      outcomes: spec.outcomes ?? [],
      enabled: spec.enabled ?? true,
      // Disabled as the API disables one (services/api, subscriptions.service.ts).
      ...(spec.enabled === false ? { disabledCode: 'manual', disabledReason: 'manual' } : {}),
      secret,
    },
  });
  return { id, secret };
}

export interface AttemptSpec {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs?: number;
  error?: string | null;
  responseBody?: string | null;
}

export interface DeliverySpec {
  status: 'pending' | 'succeeded' | 'failed';
  label?: string;
  createdAt?: Date;
  attemptCount?: number;
  nextAttemptAt?: Date | null;
  attempts?: AttemptSpec[];
}

/**
 * An event activity on the lead and its delivery to the subscription, with its
 * attempts, as the webhook worker leaves them.
 */
export async function aDelivery(
  prisma: PrismaClient,
  target: { accountId: string; leadId: string; subscriptionId: string },
  spec: DeliverySpec,
): Promise<{ deliveryId: string; activityId: string }> {
  const activity = await anActivity(prisma, {
    accountId: target.accountId,
    leadId: target.leadId,
    label: spec.label ?? 'first_message_sent',
    note: 'The first SMS was sent.',
  });
  const deliveryId = newId('delivery');
  const attempts = spec.attempts ?? [];
  await prisma.delivery.create({
    data: {
      id: deliveryId,
      activityId: activity.id,
      subscriptionId: target.subscriptionId,
      leadId: target.leadId,
      // What fan-out writes: the activity's time orders the chain (deliveries_chain_idx).
      activityOccurredAt: activity.occurredAt,
      status: spec.status,
      attemptCount: spec.attemptCount ?? attempts.length,
      nextAttemptAt: spec.nextAttemptAt ?? null,
      lastAttemptAt: attempts.at(-1)?.attemptedAt ?? null,
      ...(spec.createdAt ? { createdAt: spec.createdAt } : {}),
    },
  });
  for (const attempt of attempts) {
    await prisma.attempt.create({
      data: {
        id: newId('attempt'),
        deliveryId,
        attemptedAt: attempt.attemptedAt,
        statusCode: attempt.statusCode,
        durationMs: attempt.durationMs ?? 120,
        error: attempt.error ?? null,
        responseBody: attempt.responseBody ?? null,
      },
    });
  }
  return { deliveryId, activityId: activity.id };
}
