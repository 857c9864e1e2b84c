import { randomBytes } from 'node:crypto';
import type { Pool } from '@leadhook/db';

/**
 * Rows for the runtime's own tests (retention, gauges) that need a given age,
 * written with plain SQL in the shape the services leave them; the rows they
 * hang on come from @leadhook/testkit's factories.
 */

const hex = () => randomBytes(8).toString('hex');

/** What an idempotency key hangs on: a marketing source (see @leadhook/testkit's factories). */
export interface Owner {
  sourceId: string;
}

/** An idempotency key stored `ageHours` ago. */
export async function createIdempotencyKey(
  pool: Pool,
  owner: Owner,
  ageHours: number,
): Promise<string> {
  const key = `key-${hex()}`;
  await pool.query(
    `INSERT INTO idempotency_keys (source_id, key, request_hash, status_code, response_body, created_at)
     VALUES ($1, $2, 'hash', 201, '{}'::jsonb, now() - $3::float8 * interval '1 hour')`,
    [owner.sourceId, key, ageHours],
  );
  return key;
}

/** An outbox row created `ageHours` ago, closed `doneHoursAgo` ago (null: still open). */
export async function createOutboxRow(
  pool: Pool,
  ageHours: number,
  doneHoursAgo: number | null,
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO outbox (topic, payload, created_at, next_relay_at, done_at)
     VALUES ('enrollment', jsonb_build_object('lead_id', $1::text),
             now() - $2::float8 * interval '1 hour', now() + interval '1 hour',
             CASE WHEN $3::float8 IS NULL THEN NULL ELSE now() - $3::float8 * interval '1 hour' END)
     RETURNING id::text`,
    [`lead_${hex()}`, ageHours, doneHoursAgo],
  );
  return rows[0]!.id;
}

/** An attempt of the delivery `ageHours` ago that kept the subscriber's answer. */
export async function createAttempt(
  pool: Pool,
  deliveryId: string,
  ageHours: number,
): Promise<string> {
  // A made-up id sorts into a history partition like a ULID: one starting
  // 01…03 would name a month between 2000 and 2100 that has no partition, so
  // the `z` sends every one to the catch-all
  // (docs/operations.md, "History partitions").
  const id = `att_z${hex()}`;
  await pool.query(
    `INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms, response_body)
     VALUES ($1, $2, now() - $3::float8 * interval '1 hour', 200, 12, 'ok')`,
    [id, deliveryId, ageHours],
  );
  return id;
}
