/**
 * The intake domain (docs/intake.md): resolve the source, limit its rate, validate,
 * then store the lead or record the duplicate or rejection. Expected cases are a
 * discriminated result the route maps to HTTP; only bugs throw. Two ways in: a
 * post URL (the intake service, `submit`) and a source id within an account (the
 * api's POST /marketing_sources/{id}/leads, `findSourceById` then `submitTo`);
 * after the source, both run the same path.
 */
import { createHash } from 'node:crypto';
import {
  CONSENT_UNRECOGNISED_MESSAGE,
  consentProvider,
  isLeadField,
  LEAD_FIELD_NAMES,
  type LeadFieldError,
  type LeadValidationResult,
  type LeadValidator,
  type NormalizedLead,
  trimInvisible,
} from '@leadhook/contracts';
import {
  isDatabaseUnavailable,
  isId,
  MicroBatcher,
  newId,
  type Pool,
  type PoolClient,
} from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import type { RateLimiter } from '@leadhook/rate-limit';
import { acceptedBody, duplicateBody, rejectedBody } from './intake.responses.js';
import {
  type AcceptInput,
  type AcceptOutcome,
  acceptBatch,
  acceptOrDuplicate,
  advisoryKey,
  beginLocked,
  findActiveSources,
  findIdempotentResponse,
  findSourceById,
  type IntakeSource,
  insertRejected,
  type RequestEvidence,
  type SourceKey,
  storeIdempotentResponse,
} from './intake.store.js';

/** A lead as a request sent it, for a source already known. */
export interface Submission {
  /** The parsed body, already known to be an object. */
  body: Readonly<Record<string, unknown>>;
  idempotencyKey: string | null;
  evidence: RequestEvidence;
}

/** A lead posted to a post URL: the account in its path and the source key. */
export interface SubmitInput extends Submission {
  accountId: string;
  sourceKey: string;
}

/** Printable ASCII, as Stripe accepts: long enough for a UUID or a hash. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** The message of a 400 for an Idempotency-Key that is not one (isIdempotencyKey). */
export const INVALID_IDEMPOTENCY_KEY_MESSAGE = 'must be 1 to 255 printable ASCII characters';

/** Whether an Idempotency-Key header is one intake takes (docs/intake.md, "Idempotency"). */
export function isIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}

export type IntakeResult =
  | { kind: 'accepted'; source: IntakeSource; leadId: string }
  | { kind: 'duplicate'; source: IntakeSource; leadId: string }
  | { kind: 'rejected'; source: IntakeSource; errors: LeadFieldError[] }
  | { kind: 'idempotency_replay'; source: IntakeSource; statusCode: number; body: unknown }
  | { kind: 'idempotency_conflict'; source: IntakeSource }
  | { kind: 'rate_limited'; source: IntakeSource; retryAfterSeconds: number }
  | { kind: 'not_found' }
  | { kind: 'unavailable' };

const CONSENT_UNRECOGNISED: LeadFieldError = {
  field: 'tcpa_opt_in_token',
  code: 'consent_unrecognised',
  message: CONSENT_UNRECOGNISED_MESSAGE,
};

/** A field error's place in the validator's order: lead fields as listed, extra fields after. */
function fieldOrder(field: string): number {
  const index = (LEAD_FIELD_NAMES as readonly string[]).indexOf(field);
  return index === -1 ? LEAD_FIELD_NAMES.length : index;
}
const TOKEN_ORDER = fieldOrder('tcpa_opt_in_token');

type StoredResult = Extract<IntakeResult, { kind: 'accepted' | 'duplicate' | 'rejected' }>;

export interface IntakeServiceDeps {
  pool: Pool;
  queues: QueueSet;
  limiter: RateLimiter;
  validate: LeadValidator;
  logger: Logger;
  defaultRateLimitPerSecond: number;
  duplicateWindowDays: number;
}

/** Intake keys are base64url; anything else cannot be one, so it skips the lookup. */
const PLAUSIBLE_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * JSON with sorted keys: the same parsed body always hashes the same. Iterative:
 * a value nested thousands of levels deep (refused by validation, but hashed
 * before it, for an Idempotency-Key) must not overflow the stack.
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  // What is left to write, last first: a value, or text written as is.
  const todo: ({ value: unknown } | string)[] = [{ value: root }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { value } = item;
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    const parts: ({ value: unknown } | string)[] = [];
    if (Array.isArray(value)) {
      parts.push('[');
      value.forEach((element: unknown, i) => {
        if (i > 0) parts.push(',');
        parts.push({ value: element });
      });
      parts.push(']');
    } else {
      const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      parts.push('{');
      entries.forEach(([key, child], i) => {
        parts.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`, { value: child });
      });
      parts.push('}');
    }
    for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]!);
  }
  return out.join('');
}

export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export type SourceLookup =
  | { kind: 'found'; source: IntakeSource }
  | { kind: 'not_found' }
  | { kind: 'unavailable' };

/** A source looked up by id: a paused one is told apart (intake answers it 404 all the same). */
export type SourceByIdLookup = SourceLookup | { kind: 'paused' };

/**
 * The answer an Idempotency-Key stores for a result. A 422 is stored without the
 * names of the seller's own fields (field null): a name is the seller's data (a
 * JSON body posted as a form makes the whole body one name), and nothing of a
 * rejected body is kept. Its replay says the same, codes and messages included.
 */
export function storedResponseOf(result: StoredResult): { statusCode: number; body: unknown } {
  if (result.kind !== 'rejected') return responseOf(result);
  return {
    statusCode: 422,
    body: rejectedBody(
      result.errors.map((error) => (isLeadField(error.field) ? error : { ...error, field: null })),
    ),
  };
}

/** The response a stored result answers (and an Idempotency-Key replays). */
export function responseOf(result: StoredResult): { statusCode: number; body: unknown } {
  switch (result.kind) {
    case 'accepted':
      return { statusCode: 201, body: acceptedBody(result.leadId) };
    case 'duplicate':
      return { statusCode: 200, body: duplicateBody(result.leadId) };
    case 'rejected':
      return { statusCode: 422, body: rejectedBody(result.errors) };
  }
}

/** A batch item's own outcome: one bad lead must not fail the others' requests. */
type AcceptSettled = { ok: true; outcome: AcceptOutcome } | { ok: false; err: unknown };

/**
 * Group commit (MicroBatcher, packages/db). At most 64 leads per call: bounds a
 * transaction's lock set and duration. One call in flight per batcher: more
 * calls in flight make smaller batches, and the fixed cost per call is what
 * batching saves; one in flight cost the least CPU per lead (bench/RESULTS.md,
 * "Figures that code comments quoted"). Concurrent batches of other processes are ordered by the
 * advisory locks, which intake_accept_batch takes in sorted order.
 */
const ACCEPT_BATCH = { maxBatchSize: 64, maxInFlight: 1 };
/** Source lookups of concurrent requests: one query, usually for one source. */
const LOOKUP_BATCH = { maxBatchSize: 64, maxInFlight: 1 };
/**
 * The enrollment fast path: jobs of leads committed while an addBulk is in flight
 * go out together (one pipeline instead of one round trip and one promise race
 * per job; BullMQ's add was a large share of the intake's CPU per lead).
 */
const ENQUEUE_BATCH = { maxBatchSize: 256, maxInFlight: 1 };

export class IntakeService {
  private readonly sources: MicroBatcher<SourceKey, IntakeSource | null>;
  private readonly accepts: MicroBatcher<AcceptInput, AcceptSettled>;
  /** Enrollment jobs, coalesced into one addBulk while one is in flight (enqueueSoon). */
  private readonly enrollments: MicroBatcher<string, void>;

  constructor(private readonly deps: IntakeServiceDeps) {
    this.sources = new MicroBatcher({
      ...LOOKUP_BATCH,
      run: (keys) => findActiveSources(deps.pool, keys),
    });
    this.accepts = new MicroBatcher({ ...ACCEPT_BATCH, run: (items) => this.acceptMany(items) });
    this.enrollments = new MicroBatcher<string, void>({
      ...ENQUEUE_BATCH,
      run: async (leadIds) => {
        await deps.queues.enqueueMany(
          'enrollment',
          leadIds.map((id) => ({ lead_id: id })),
        );
        return leadIds.map(() => undefined);
      },
    });
  }

  /**
   * One call for the batch. If it fails for a reason other than PostgreSQL being
   * away (a lead PostgreSQL refuses, e.g. a NUL character in a field), nothing of
   * it was stored, and each lead is retried alone so only the culprit fails.
   */
  private async acceptMany(items: readonly AcceptInput[]): Promise<AcceptSettled[]> {
    try {
      const outcomes = await acceptBatch(this.deps.pool, items);
      return outcomes.map((outcome) => ({ ok: true, outcome }));
    } catch (err) {
      if (items.length === 1 || isDatabaseUnavailable(err))
        return items.map(() => ({ ok: false, err }));
      return Promise.all(
        items.map((item) =>
          acceptBatch(this.deps.pool, [item]).then(
            ([outcome]): AcceptSettled => ({ ok: true, outcome: outcome! }),
            (itemErr: unknown): AcceptSettled => ({ ok: false, err: itemErr }),
          ),
        ),
      );
    }
  }

  /** A lead posted to a post URL. */
  async submit(input: SubmitInput): Promise<IntakeResult> {
    return this.unlessUnavailable(async () => {
      const source = await this.activeSource(input.accountId, input.sourceKey);
      if (!source) return { kind: 'not_found' };
      return this.submitToSource(source, input);
    });
  }

  /**
   * A lead for a source already found (findSourceById): the rest of the path a
   * post URL's lead takes, the source's rate limit first.
   */
  async submitTo(source: IntakeSource, submission: Submission): Promise<IntakeResult> {
    return this.unlessUnavailable(() => this.submitToSource(source, submission));
  }

  private async unlessUnavailable(work: () => Promise<IntakeResult>): Promise<IntakeResult> {
    try {
      return await work();
    } catch (err) {
      // PostgreSQL away: the transaction (if any) was rolled back with its
      // connection, so nothing is half-stored; the seller retries.
      if (isDatabaseUnavailable(err)) return { kind: 'unavailable' };
      throw err;
    }
  }

  /**
   * A source by its id within an account (the api's way in): not_found for
   * another account's, a deleted or an unknown one; paused for a paused one.
   */
  async findSourceById(accountId: string, sourceId: string): Promise<SourceByIdLookup> {
    try {
      if (!isId('account', accountId) || !isId('source', sourceId)) return { kind: 'not_found' };
      const found = await findSourceById(this.deps.pool, accountId, sourceId);
      if (!found) return { kind: 'not_found' };
      return found.active ? { kind: 'found', source: found.source } : { kind: 'paused' };
    } catch (err) {
      if (isDatabaseUnavailable(err)) return { kind: 'unavailable' };
      throw err;
    }
  }

  /**
   * The active source of a post URL, for the answers that are not a submission
   * (another method than POST). Unknown, rotated, paused and deleted are one
   * not_found, as for a POST.
   */
  async findSource(accountId: string, sourceKey: string): Promise<SourceLookup> {
    try {
      const source = await this.activeSource(accountId, sourceKey);
      return source ? { kind: 'found', source } : { kind: 'not_found' };
    } catch (err) {
      if (isDatabaseUnavailable(err)) return { kind: 'unavailable' };
      throw err;
    }
  }

  private async activeSource(accountId: string, sourceKey: string): Promise<IntakeSource | null> {
    if (!isId('account', accountId) || !PLAUSIBLE_KEY.test(sourceKey)) return null;
    return this.sources.submit({ accountId, intakeKey: sourceKey });
  }

  private async submitToSource(source: IntakeSource, input: Submission): Promise<IntakeResult> {
    const { pool, limiter } = this.deps;
    const decision = await limiter.consume(
      source.id,
      source.rateLimit ?? this.deps.defaultRateLimitPerSecond,
    );
    if (!decision.allowed) {
      return { kind: 'rate_limited', source, retryAfterSeconds: decision.retryAfterSeconds };
    }

    if (input.idempotencyKey !== null) return this.submitIdempotent(source, input);

    const validation = this.validateFor(source, input.body);
    if (!validation.ok) {
      await insertRejected(pool, {
        source,
        submissionId: newId('submission'),
        errors: validation.errors,
        evidence: input.evidence,
      });
      return { kind: 'rejected', source, errors: validation.errors };
    }
    // Group-committed with the leads of concurrent requests; this request is
    // answered only after the transaction holding its lead committed.
    const settled = await this.accepts.submit(
      this.acceptInput(source, validation.lead, input.evidence),
    );
    if (!settled.ok) throw settled.err;
    const { result, leadId } = settled.outcome;
    if (result === 'accepted') this.enqueueSoon(leadId);
    return { kind: result, source, leadId };
  }

  /**
   * The same key for the same source within 24 h answers the first response. The
   * lookup, the work and the stored response share one transaction under a lock
   * on (source, key), so concurrent retries wait for the first and replay it.
   */
  private async submitIdempotent(source: IntakeSource, input: Submission): Promise<IntakeResult> {
    const key = input.idempotencyKey!;
    const requestHash = bodyHash(input.body);
    const result = await this.transaction(
      advisoryKey('idempotency', source.id, key),
      async (client): Promise<IntakeResult> => {
        const stored = await findIdempotentResponse(client, source.id, key);
        if (stored) {
          return stored.requestHash === requestHash
            ? {
                kind: 'idempotency_replay',
                source,
                statusCode: stored.statusCode,
                body: stored.body,
              }
            : { kind: 'idempotency_conflict', source };
        }
        const validation = this.validateFor(source, input.body);
        let result: StoredResult;
        if (validation.ok) {
          result = await this.store(client, source, validation.lead, input.evidence);
        } else {
          await insertRejected(client, {
            source,
            submissionId: newId('submission'),
            errors: validation.errors,
            evidence: input.evidence,
          });
          result = { kind: 'rejected', source, errors: validation.errors };
        }
        await storeIdempotentResponse(client, source.id, key, {
          requestHash,
          ...storedResponseOf(result),
        });
        return result;
      },
    );
    if (result.kind === 'accepted') this.enqueueSoon(result.leadId);
    return result;
  }

  /**
   * The lead's fields, then the source's consent rule
   * (docs/intake.md, "Consent evidence"): a "recognised" source takes only a
   * token whose shape names a provider. A token that already fails (blank, too long) keeps that error; an
   * unrecognised one is listed with the other problems, in field order.
   */
  private validateFor(
    source: IntakeSource,
    body: Readonly<Record<string, unknown>>,
  ): LeadValidationResult {
    const validation = this.deps.validate(body);
    if (source.consentRequired !== 'recognised') return validation;
    if (validation.ok) {
      if (consentProvider(validation.lead.fields.tcpa_opt_in_token) !== null) return validation;
      return { ok: false, errors: [CONSENT_UNRECOGNISED] };
    }
    const token = body.tcpa_opt_in_token;
    if (
      validation.errors.some((e) => e.field === 'tcpa_opt_in_token') ||
      typeof token !== 'string' ||
      consentProvider(trimInvisible(token)) !== null
    ) {
      return validation;
    }
    const errors = [...validation.errors];
    const at = errors.findIndex((e) => fieldOrder(e.field) > TOKEN_ORDER);
    errors.splice(at === -1 ? errors.length : at, 0, CONSENT_UNRECOGNISED);
    return { ok: false, errors };
  }

  private phoneLockKey(source: IntakeSource, lead: NormalizedLead): string {
    return advisoryKey('lead-phone', source.accountId, lead.fields.phone);
  }

  private acceptInput(
    source: IntakeSource,
    lead: NormalizedLead,
    evidence: RequestEvidence,
  ): AcceptInput {
    return {
      lockKey: this.phoneLockKey(source, lead),
      source,
      lead,
      leadId: newId('lead'),
      submissionId: newId('submission'),
      windowDays: source.duplicateWindowDays ?? this.deps.duplicateWindowDays,
      evidence,
    };
  }

  /** The Idempotency-Key path: one lead, inside that path's own transaction. */
  private async store(
    client: PoolClient,
    source: IntakeSource,
    lead: NormalizedLead,
    evidence: RequestEvidence,
  ): Promise<StoredResult> {
    const outcome = await acceptOrDuplicate(client, this.acceptInput(source, lead, evidence));
    return { kind: outcome.result, source, leadId: outcome.leadId };
  }

  /** BEGIN + advisory lock, the work, COMMIT; a broken connection is destroyed, not reused. */
  private async transaction<T>(lockKey: string, work: (client: PoolClient) => Promise<T>) {
    const client = await this.deps.pool.connect();
    // A checked-out client emits 'error' when its connection dies (PostgreSQL
    // restarted, backend terminated). Unheard, that event would crash the
    // process; the failing query rejects anyway and the caller answers 503.
    let lost: Error | undefined;
    const onError = (err: Error) => {
      lost = err;
    };
    client.on('error', onError);
    try {
      await beginLocked(client, lockKey);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      if (!lost) {
        await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
          lost = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
        });
      }
      throw err;
    } finally {
      client.off('error', onError);
      client.release(lost);
    }
  }

  /**
   * The fast path after commit: the enrollment job now, without making the
   * response wait. If Redis is away the enqueue fails fast (QueueSet never waits
   * for a connection) and the lead's outbox row, committed with it, is enqueued
   * by the relay once Redis is back.
   */
  private enqueueSoon(leadId: string): void {
    this.enrollments.submit(leadId).catch((err: unknown) => {
      this.deps.logger.warn(
        { err, lead_id: leadId },
        'enrollment enqueue failed; the outbox relay will send it',
      );
    });
  }
}
