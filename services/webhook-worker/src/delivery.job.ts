import { newId } from '@leadhook/db';
import { type Logger, withTimeout } from '@leadhook/observability';
import { type AttemptResult, deliver, payloadOf } from '@leadhook/webhooks';
import { answersByItem } from './batch-answers.js';
import {
  attemptOutcome,
  enqueueOrLog,
  jittered,
  type WebhookDeps,
  type WorkerDisableReason,
} from './webhook.deps.js';

/**
 * Delivery chains (docs/webhooks.md, "Ordering"): the pending deliveries of
 * one (subscription, lead), in the order of their activities (occurred_at, then
 * id: ids are time-sortable and monotonic within a process, so activities written
 * in one transaction keep their order). Only a chain's head is ever tried, and
 * trying it takes a lease on its row (webhook_claim), so at most one delivery per
 * chain is in flight and a healthy subscriber sees a lead's activities in
 * occurrence order; other chains, of the same subscriber or another, never wait
 * for it. The rows decide everything; a job only says "look at delivery X,
 * attempt N", so duplicate jobs (fast path, reconciler, a stalled job run again)
 * are harmless.
 *
 * When a head succeeds or finally fails, the same statement that records it
 * claims the chain's next delivery if it is due, and the job goes on with it
 * (up to CHAIN_RUN_LIMIT deliveries, then the next one is enqueued and waits its
 * turn in the queue like any other chain): a backlog drains at one SQL round
 * trip per delivery and without a queue round trip per delivery.
 */

/** A subscription failing with no 2xx for this long is disabled (docs/webhooks.md, "Disabling"). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
/** A Retry-After is honoured up to this long; past it the 5-day rule decides anyway. */
const MAX_RETRY_AFTER_MS = DISABLE_AFTER_FAILING_MS;
/**
 * How far one job goes down its chain before handing it back to the queue (where
 * it waits its turn behind other chains): this many deliveries, this long, or
 * until the process is stopping (so that shutdown waits for one attempt, not a chain).
 */
export const CHAIN_RUN_LIMIT = 20;
export const CHAIN_RUN_MS = 10_000;
/** The lease on a delivery being tried: the attempt's timeout plus time to record it. */
const LEASE_MARGIN_MS = 5000;

/** How long a claim leases a delivery for (every claim asks for this). */
export function leaseMs(deps: Pick<WebhookDeps, 'timeoutMs'>): number {
  return deps.timeoutMs + LEASE_MARGIN_MS;
}

export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'disabled';

export type SkipReason = 'not_found' | 'terminal' | 'stale' | 'not_head' | 'subscription_disabled';

export type DeliveryJobResult =
  | { kind: 'skipped'; reason: SkipReason }
  | { kind: 'not_due'; dueAt: Date }
  /** Its own delivery's attempt was interrupted (the worker is stopping): see handBack. */
  | { kind: 'handed_back'; deliveryId: string; attempt: number }
  | { kind: 'attempted'; attempts: number };

/** One HTTP try and what became of its delivery (for the log). */
export interface AttemptReport {
  deliveryId: string;
  attempt: number;
  subscriptionId: string;
  leadId: string;
  outcome: DeliveryOutcome | 'stale';
  result: AttemptResult;
}

/**
 * The log line of one attempt (no URL, body or secret: ids, outcome, status,
 * timing): a failed try at warn, since it is what an operator acts on (the
 * subscriber is down, refusing, or slow); a 2xx at debug, since at one line per
 * delivery it would drown everything else at the default level
 * (docs/operations.md "Logs").
 */
export function logAttempt(logger: Logger, report: AttemptReport): void {
  const level = report.result.ok ? 'debug' : 'warn';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      delivery_id: report.deliveryId,
      attempt: report.attempt,
      subscription_id: report.subscriptionId,
      lead_id: report.leadId,
      outcome: report.outcome,
      status_code: report.result.statusCode,
      duration_ms: report.result.durationMs,
      ...(report.result.error ? { error: report.result.error } : {}),
    },
    'delivery attempt',
  );
}

/** A row of webhook_claim / webhook_record_attempt (the SQL type webhook_step). */
export interface Step {
  outcome: DeliveryOutcome | 'stale' | null;
  retry_at: Date | null;
  disabled_now: boolean | null;
  disabled_reason: WorkerDisableReason | null;
  claim:
    | 'claimed'
    | 'not_found'
    | 'terminal'
    | 'stale'
    | 'not_head'
    | 'subscription_disabled'
    | 'busy'
    | 'not_due'
    | 'unclaimed'
    | null;
  delivery_id: string;
  attempt_count: number;
  due_at: Date | null;
  subscription_id: string;
  lead_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  activity_id: string;
  activity_type: string;
  activity_label: string;
  occurred_at: Date;
  note: string;
  data: unknown;
  activity_enrollment_id: string | null;
  lead_external_id: string | null;
  lead_source_name: string;
  lead_first_name: string;
  lead_last_name: string;
  lead_email: string;
  lead_opted_out: boolean;
  lead_created_at: Date;
  lead_extra: unknown;
  lead_enrollment_id: string | null;
  source_id: string;
  source_name: string;
  playbook_id: string;
  playbook_name: string;
}

type Json = Parameters<typeof payloadOf>[0]['activity']['data'];

async function claim(deps: WebhookDeps, deliveryId: string, attempt: number): Promise<Step> {
  const { rows } = await deps.pool.query<Step>('SELECT * FROM webhook_claim($1, $2, $3, $4)', [
    deliveryId,
    attempt,
    deps.now(),
    leaseMs(deps),
  ]);
  const step = rows[0];
  if (!step) throw new Error('webhook_claim returned no row');
  return step;
}

/**
 * Runs the job "attempt `attempt` of delivery `delivery_id`": claims it, sends
 * it, records the attempt, and goes on down the chain while the next delivery
 * is due (see above). Retries are delayed jobs of their own with the next
 * attempt number (docs/webhooks.md, "Retries").
 */
export async function runDelivery(
  deps: WebhookDeps,
  job: { delivery_id: string; attempt: number },
  onAttempt: (report: AttemptReport) => void = () => {},
): Promise<DeliveryJobResult> {
  return runClaimed(deps, await claim(deps, job.delivery_id, job.attempt), onAttempt);
}

/** A webhook_step that travelled as JSON (to_jsonb): its times back to Dates. */
export function stepFromJson(json: Record<string, unknown>): Step {
  const date = (key: string) => (json[key] == null ? null : new Date(json[key] as string));
  return {
    ...(json as unknown as Step),
    retry_at: date('retry_at'),
    due_at: date('due_at'),
    previous_secret_expires_at: date('previous_secret_expires_at'),
    occurred_at: date('occurred_at') as Date,
    lead_created_at: date('lead_created_at') as Date,
  };
}

/**
 * Goes on from a claim's answer (a delivery job's own claim, or a head its fan-out
 * claimed: webhook_fan_out_claim, see fanout.job.ts): sends the claimed delivery
 * and walks down its chain.
 */
export async function runClaimed(
  deps: WebhookDeps,
  first: Step,
  onAttempt: (report: AttemptReport) => void = () => {},
): Promise<DeliveryJobResult> {
  const started = Date.now();
  let step = first;
  let attempts = 0;
  for (;;) {
    const own = attempts === 0;
    switch (step.claim) {
      case 'claimed':
        break;
      case 'not_due':
      case 'busy':
        // Not yet (a reconciler that looked ahead), or another worker holds the
        // lease: the job waits until then. The chain's next delivery, found so,
        // gets a job of its own (a busy one has its holder).
        if (own && step.due_at) return { kind: 'not_due', dueAt: step.due_at };
        if (step.claim === 'not_due') {
          await enqueueOrLog(deps, step.delivery_id, step.attempt_count, step.due_at);
        }
        return { kind: 'attempted', attempts };
      case 'not_head':
      case 'unclaimed':
        // The chain's head (an older activity's delivery that appeared later, or
        // the next one when this job has gone far enough) gets a job of its own.
        await enqueueOrLog(deps, step.delivery_id, step.attempt_count, step.due_at);
        return own ? { kind: 'skipped', reason: 'not_head' } : { kind: 'attempted', attempts };
      default:
        return own && step.claim !== null
          ? { kind: 'skipped', reason: step.claim }
          : { kind: 'attempted', attempts };
    }

    const attempt = step.attempt_count;
    const attemptedAt = deps.now();
    const sentAt = Date.now();
    let result: AttemptResult;
    try {
      result = await send(deps, step, attemptedAt);
    } catch (err) {
      // Only the interruption is handed back (deliver() rethrows its reason); any
      // other error is the job's, as before the drain.
      if (!deps.interrupt.aborted || err !== deps.interrupt.reason) throw err;
      const leaseUntil = new Date(Math.max(attemptedAt.getTime(), sentAt) + leaseMs(deps));
      await handBack(deps, step, Date.now() - sentAt, leaseUntil);
      // The job's own delivery: the job waits for another worker (the caller).
      if (own) return { kind: 'handed_back', deliveryId: step.delivery_id, attempt };
      await enqueueOrLog(deps, step.delivery_id, attempt, null);
      return { kind: 'attempted', attempts };
    }
    attempts++;
    deps.metrics.attemptDuration.observe(
      { outcome: attemptOutcome(result) },
      result.durationMs / 1000,
    );
    const sent = step;
    const goOn =
      attempts < CHAIN_RUN_LIMIT && Date.now() - started < CHAIN_RUN_MS && !deps.stopping();
    step = await record(deps, sent, attempt, attemptedAt, result, goOn);
    const outcome = step.outcome ?? 'stale';
    onAttempt({
      deliveryId: sent.delivery_id,
      attempt,
      subscriptionId: sent.subscription_id,
      leadId: sent.lead_id,
      outcome,
      result,
    });
    if (outcome === 'retry') {
      await enqueueOrLog(deps, sent.delivery_id, attempt + 1, step.retry_at);
      return { kind: 'attempted', attempts };
    }
    if (outcome === 'disabled') {
      deps.metrics.deliveries.inc({ result: 'failed' });
      if (step.disabled_now && step.disabled_reason) {
        deps.metrics.subscriptionsDisabled.inc({ reason: step.disabled_reason });
      }
      return { kind: 'attempted', attempts };
    }
    if (outcome === 'stale') return { kind: 'attempted', attempts };
    deps.metrics.deliveries.inc({ result: outcome });
    // Succeeded or finally failed: `step` is now the chain's next delivery (or none).
  }
}

/**
 * An attempt still in flight at the drain deadline (the worker is stopping:
 * drainTimeoutMs, packages/worker-runtime) is aborted (deps.interrupt) and
 * handed back: webhook_release ends its lease, and the same attempt, with the
 * same webhook-id, is sent again by a worker that is not stopping, at once (a
 * job waits in Redis for it: the delivery job's own, or a new one for a delivery
 * a fan-out claimed; the reconciler covers a Redis that is away).
 *
 * No attempt row is written for it, on purpose. An attempt row is the
 * subscriber's answer to a try that had its whole WEBHOOK_TIMEOUT_MS, and it
 * moves the delivery on: it spends an entry of the retry schedule (the last one
 * fails the delivery), waits the next entry before the retry, and starts the
 * subscription's 5-day failing clock. An interrupted try had less than its
 * timeout and has no answer: recording it would charge the subscriber for our
 * restart, up to failing a delivery it would have taken. Handing back is what a
 * crash already does (the lease lapses and the same attempt runs again:
 * docs/webhooks.md, "At-least-once"), only without the wait. The subscriber may
 * get the webhook-id twice, which is what deduplicating on it is for; this log
 * line is the interrupted try's record. PostgreSQL unreachable: the lease lapses
 * instead.
 */
async function handBack(
  deps: WebhookDeps,
  step: Step,
  durationMs: number,
  leaseUntil: Date,
): Promise<void> {
  const fields = {
    delivery_id: step.delivery_id,
    attempt: step.attempt_count,
    subscription_id: step.subscription_id,
    lead_id: step.lead_id,
    duration_ms: durationMs,
  };
  const failure = await releaseLease(deps, step, leaseUntil);
  if (failure === undefined) {
    deps.logger.info(fields, 'delivery attempt interrupted (stopping); handed back');
  } else {
    deps.logger.warn(
      { ...fields, err: failure },
      'delivery attempt interrupted (stopping); its lease lapses, then it is sent again',
    );
  }
}

/**
 * Ends this worker's lease of a claimed delivery that it will not send
 * (webhook_release: its own lease only, one ending by `leaseUntil`), so another
 * worker sends it at once. Within a budget: the worker is stopping, and a
 * PostgreSQL that is slow or away must not hold the exit (the lease then
 * lapses instead). Resolves with the failure, if any; never rejects.
 */
export async function releaseLease(
  deps: WebhookDeps,
  step: Step,
  leaseUntil: Date,
): Promise<unknown> {
  try {
    await withTimeout(
      deps.pool.query('SELECT webhook_release($1, $2, $3, $4)', [
        step.delivery_id,
        step.attempt_count,
        deps.now(),
        leaseUntil,
      ]),
      HAND_BACK_BUDGET_MS,
      () => new Error(`no answer within ${HAND_BACK_BUDGET_MS} ms`),
    );
    return undefined;
  } catch (err) {
    return err;
  }
}

/** How long a hand-back waits for PostgreSQL: well inside the drain's reserve (worker-runtime drainTimeoutMs). */
const HAND_BACK_BUDGET_MS = 300;

/** Signs and sends a claimed delivery (the HTTP try happens outside any transaction). */
function send(deps: WebhookDeps, step: Step, now: Date): Promise<AttemptResult> {
  const { body } = payloadOf({
    activity: {
      id: step.activity_id,
      activityType: step.activity_type,
      activityLabel: step.activity_label,
      occurredAt: step.occurred_at,
      note: step.note,
      data: step.data as Json,
      enrollmentId: step.activity_enrollment_id,
    },
    lead: {
      id: step.lead_id,
      externalId: step.lead_external_id,
      sourceName: step.lead_source_name,
      firstName: step.lead_first_name,
      lastName: step.lead_last_name,
      email: step.lead_email,
      optedOut: step.lead_opted_out,
      createdAt: step.lead_created_at,
      extra: step.lead_extra as Json,
      enrollmentId: step.lead_enrollment_id,
    },
    source: { id: step.source_id, name: step.source_name },
    playbook: { id: step.playbook_id, name: step.playbook_name },
  });
  const rotating =
    step.previous_secret !== null &&
    step.previous_secret_expires_at !== null &&
    step.previous_secret_expires_at.getTime() > now.getTime();
  const secrets =
    rotating && step.previous_secret ? [step.secret, step.previous_secret] : [step.secret];
  return deliver({
    url: step.url,
    body,
    id: step.activity_id,
    secrets,
    timeoutMs: deps.timeoutMs,
    allowPrivateTargets: deps.allowPrivateTargets,
    now: deps.now,
    signal: deps.interrupt,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
}

/**
 * One attempt to record: the arguments of webhook_record_attempt that are the
 * attempt's own (prisma/functions/webhook/webhook_record_attempts.sql), as JSON.
 */
export interface AttemptRecord {
  delivery_id: string;
  attempt: number;
  attempt_id: string;
  attempted_at: Date;
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  retry_delay_ms: number | null;
  /** Claim the chain's next delivery when this one is done with (the walk goes on). */
  continue: boolean;
}

/**
 * Records attempts in one transaction (webhook_record_attempts: each item as
 * webhook_record_attempt records it alone); the answers in the items' order.
 * The worker calls it through deps.records, which gathers the attempts that
 * finish while a call runs into the next one.
 */
export async function recordAttempts(
  deps: Pick<WebhookDeps, 'pool' | 'now' | 'timeoutMs'>,
  items: readonly AttemptRecord[],
): Promise<Step[]> {
  const { rows } = await deps.pool.query<Step & { item: number }>(
    'SELECT r.item, (r.step).* FROM webhook_record_attempts($1, $2, $3, $4) r',
    [JSON.stringify(items), deps.now(), DISABLE_AFTER_FAILING_MS, leaseMs(deps)],
  );
  return answersByItem<Step>(rows, items.length, 'webhook_record_attempts');
}

/**
 * Records the attempt and moves the delivery on (webhook_record_attempt, in a
 * transaction shared with the other attempts that finished meanwhile): the
 * retry's delay is chosen here, from the schedule's next entry with jitter and
 * at least the answer's Retry-After; none left = failed.
 */
function record(
  deps: WebhookDeps,
  step: Step,
  attempt: number,
  attemptedAt: Date,
  result: AttemptResult,
  goOn: boolean,
): Promise<Step> {
  const scheduled = deps.retryScheduleMs[attempt + 1];
  const retryDelayMs =
    scheduled === undefined
      ? null
      : Math.max(
          jittered(scheduled, deps.random),
          Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS),
        );
  return deps.records.submit({
    delivery_id: step.delivery_id,
    attempt,
    attempt_id: newId('attempt'),
    attempted_at: attemptedAt,
    ok: result.ok,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error: result.error,
    response_body: result.responseBody,
    retry_delay_ms: retryDelayMs,
    continue: goOn,
  });
}
