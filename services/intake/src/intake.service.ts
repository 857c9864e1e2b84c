/**
 * The intake domain (CONTRACT §1): resolve the source, limit its rate, validate,
 * then store the lead or record the duplicate or rejection. Expected cases are a
 * discriminated result the route maps to HTTP; only bugs throw.
 */
import { createHash } from 'node:crypto';
import type { LeadFieldError, LeadValidator, NormalizedLead } from '@leadhook/contracts';
import { isDatabaseUnavailable, isId, newId, type Pool, type PoolClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import { acceptedBody, duplicateBody, rejectedBody } from './intake.responses.js';
import {
  acceptOrDuplicate,
  advisoryKey,
  beginLocked,
  findActiveSource,
  findIdempotentResponse,
  type IntakeSource,
  insertRejected,
  type RequestEvidence,
  storeIdempotentResponse,
} from './intake.store.js';
import type { SourceRateLimiter } from './rate-limit.js';

export interface SubmitInput {
  accountId: string;
  sourceKey: string;
  /** The parsed body, already known to be an object. */
  body: Readonly<Record<string, unknown>>;
  idempotencyKey: string | null;
  evidence: RequestEvidence;
}

export type IntakeResult =
  | { kind: 'accepted'; source: IntakeSource; leadId: string }
  | { kind: 'duplicate'; source: IntakeSource; leadId: string }
  | { kind: 'rejected'; source: IntakeSource; errors: LeadFieldError[] }
  | { kind: 'idempotency_replay'; source: IntakeSource; statusCode: number; body: unknown }
  | { kind: 'idempotency_conflict'; source: IntakeSource }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'not_found' }
  | { kind: 'unavailable' };

type StoredResult = Extract<IntakeResult, { kind: 'accepted' | 'duplicate' | 'rejected' }>;

export interface IntakeServiceDeps {
  pool: Pool;
  queues: QueueSet;
  limiter: SourceRateLimiter;
  validate: LeadValidator;
  logger: Logger;
  defaultRateLimitPerSecond: number;
  duplicateWindowDays: number;
}

/** Intake keys are base64url; anything else cannot be one, so it skips the lookup. */
const PLAUSIBLE_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/** JSON with sorted keys: the same parsed body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
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

export class IntakeService {
  constructor(private readonly deps: IntakeServiceDeps) {}

  async submit(input: SubmitInput): Promise<IntakeResult> {
    try {
      return await this.submitOrThrow(input);
    } catch (err) {
      // PostgreSQL away: the transaction (if any) was rolled back with its
      // connection, so nothing is half-stored; the seller retries.
      if (isDatabaseUnavailable(err)) return { kind: 'unavailable' };
      throw err;
    }
  }

  private async submitOrThrow(input: SubmitInput): Promise<IntakeResult> {
    const { pool, limiter } = this.deps;
    if (!isId('account', input.accountId) || !PLAUSIBLE_KEY.test(input.sourceKey)) {
      return { kind: 'not_found' };
    }
    const source = await findActiveSource(pool, input.accountId, input.sourceKey);
    if (!source) return { kind: 'not_found' };

    const decision = await limiter.consume(
      source.id,
      source.rateLimit ?? this.deps.defaultRateLimitPerSecond,
    );
    if (!decision.allowed) {
      return { kind: 'rate_limited', retryAfterSeconds: decision.retryAfterSeconds };
    }

    if (input.idempotencyKey !== null) return this.submitIdempotent(source, input);

    const validation = this.deps.validate(input.body);
    if (!validation.ok) {
      await insertRejected(pool, {
        source,
        submissionId: newId('submission'),
        errors: validation.errors,
        externalId: externalIdOf(input.body),
        evidence: input.evidence,
      });
      return { kind: 'rejected', source, errors: validation.errors };
    }
    // One statement, its own transaction: no BEGIN/COMMIT round trips.
    const result = await this.store(pool, source, validation.lead, input.evidence);
    if (result.kind === 'accepted') this.enqueueSoon(result.leadId);
    return result;
  }

  /**
   * The same key for the same source within 24 h answers the first response. The
   * lookup, the work and the stored response share one transaction under a lock
   * on (source, key), so concurrent retries wait for the first and replay it.
   */
  private async submitIdempotent(source: IntakeSource, input: SubmitInput): Promise<IntakeResult> {
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
        const validation = this.deps.validate(input.body);
        let result: StoredResult;
        if (validation.ok) {
          result = await this.store(client, source, validation.lead, input.evidence);
        } else {
          await insertRejected(client, {
            source,
            submissionId: newId('submission'),
            errors: validation.errors,
            externalId: externalIdOf(input.body),
            evidence: input.evidence,
          });
          result = { kind: 'rejected', source, errors: validation.errors };
        }
        await storeIdempotentResponse(client, source.id, key, {
          requestHash,
          ...responseOf(result),
        });
        return result;
      },
    );
    if (result.kind === 'accepted') this.enqueueSoon(result.leadId);
    return result;
  }

  private phoneLockKey(source: IntakeSource, lead: NormalizedLead): string {
    return advisoryKey('lead-phone', source.accountId, lead.fields.phone);
  }

  private async store(
    db: Pool | PoolClient,
    source: IntakeSource,
    lead: NormalizedLead,
    evidence: RequestEvidence,
  ): Promise<StoredResult> {
    const outcome = await acceptOrDuplicate(db, {
      lockKey: this.phoneLockKey(source, lead),
      source,
      lead,
      leadId: newId('lead'),
      submissionId: newId('submission'),
      windowDays: source.duplicateWindowDays ?? this.deps.duplicateWindowDays,
      evidence,
    });
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
    this.deps.queues.enqueue('enrollment', { lead_id: leadId }).catch((err: unknown) => {
      this.deps.logger.warn(
        { err, lead_id: leadId },
        'enrollment enqueue failed; the outbox relay will send it',
      );
    });
  }
}

function externalIdOf(body: Readonly<Record<string, unknown>>): string | null {
  const value = body.external_id;
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : null;
}
