import { randomBytes } from 'node:crypto';
import type { Pool } from '@leadhook/db';

/**
 * Rows for the runtime's own tests (retention, gauges), written with plain SQL
 * in the shape the services leave them: the runtime knows tables, not services.
 */

const hex = () => randomBytes(8).toString('hex');

export interface Owner {
  accountId: string;
  playbookId: string;
  sourceId: string;
}

/** An account with a playbook and a marketing source. */
export async function createOwner(pool: Pool): Promise<Owner> {
  const owner = { accountId: `acc_${hex()}`, playbookId: `pb_${hex()}`, sourceId: `src_${hex()}` };
  await pool.query('INSERT INTO accounts (id, name) VALUES ($1, $2)', [owner.accountId, 'Acme']);
  await pool.query('INSERT INTO playbooks (id, account_id, name) VALUES ($1, $2, $3)', [
    owner.playbookId,
    owner.accountId,
    'Auto',
  ]);
  await pool.query(
    `INSERT INTO marketing_sources (id, account_id, playbook_id, name, source_type, intake_key)
     VALUES ($1, $2, $3, 'Vendor A', 'vendor', $4)`,
    [owner.sourceId, owner.accountId, owner.playbookId, hex()],
  );
  return owner;
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

/** A lead of the owner, an activity, a subscription and its delivery: what attempts hang on. */
export async function createDelivery(pool: Pool, owner: Owner): Promise<string> {
  const leadId = `lead_${hex()}`;
  await pool.query(
    `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                        first_name, last_name, fields, canonical, tcpa_opt_in_token,
                        tcpa_opt_in_url, received_at)
     VALUES ($1, $2, $3, 'Vendor A', $4, $5, 'ada@example.com', 'Ada', 'Lovelace',
             '{}'::jsonb, '{}'::jsonb, 'tok', 'https://forms.example.com', now())`,
    [
      leadId,
      owner.accountId,
      owner.sourceId,
      owner.playbookId,
      `+1512${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    ],
  );
  const activityId = `act_${hex()}`;
  await pool.query(
    `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note)
     VALUES ($1, $2, $3, 'event', 'started', 'Started.')`,
    [activityId, owner.accountId, leadId],
  );
  const subscriptionId = `sub_${hex()}`;
  await pool.query(
    `INSERT INTO subscriptions (id, account_id, url, events, secret)
     VALUES ($1, $2, 'https://hooks.example.com/x', ARRAY['*'], 'whsec_x')`,
    [subscriptionId, owner.accountId],
  );
  const deliveryId = `del_${hex()}`;
  await pool.query(
    `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at, status)
     SELECT $1, $2, $3, $4, occurred_at, 'succeeded' FROM activities WHERE id = $2`,
    [deliveryId, activityId, subscriptionId, leadId],
  );
  return deliveryId;
}

/** An attempt of the delivery `ageHours` ago that kept the subscriber's answer. */
export async function createAttempt(
  pool: Pool,
  deliveryId: string,
  ageHours: number,
): Promise<string> {
  const id = `att_${hex()}`;
  await pool.query(
    `INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms, response_body)
     VALUES ($1, $2, now() - $3::float8 * interval '1 hour', 200, 12, 'ok')`,
    [id, deliveryId, ageHours],
  );
  return id;
}
