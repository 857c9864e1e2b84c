import { newId, type PrismaClient } from '@leadhook/db';
import { createLead } from './leads.factory.js';

/**
 * Activities, deliveries and attempts written straight through Prisma, in the
 * shape the webhook worker leaves them (the worker is another service; the api
 * tests do not run it). Factories: every call makes fresh rows.
 */

/** A source, a playbook and a lead of the account, for deliveries to point at. */
export async function createLeadOf(
  prisma: PrismaClient,
  accountId: string,
  playbookId: string,
): Promise<string> {
  const source = await prisma.marketingSource.create({
    data: {
      id: newId('source'),
      accountId,
      playbookId,
      name: 'Factory source',
      sourceType: 'vendor',
      intakeKey: newId('source'),
    },
  });
  return createLead(prisma, { accountId, sourceId: source.id, playbookId });
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

/** An event activity on the lead and its delivery to the subscription, with its attempts. */
export async function createDelivery(
  prisma: PrismaClient,
  target: { accountId: string; leadId: string; subscriptionId: string },
  spec: DeliverySpec,
): Promise<{ deliveryId: string; activityId: string }> {
  const activityId = newId('activity');
  const activity = await prisma.activity.create({
    data: {
      id: activityId,
      accountId: target.accountId,
      leadId: target.leadId,
      activityType: 'event',
      activityLabel: spec.label ?? 'first_message_sent',
      note: 'The first SMS was sent.',
    },
  });
  const deliveryId = newId('delivery');
  const attempts = spec.attempts ?? [];
  await prisma.delivery.create({
    data: {
      id: deliveryId,
      activityId,
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
  return { deliveryId, activityId };
}
