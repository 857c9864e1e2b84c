import {
  announce,
  inTransaction,
  pgRunner,
  type RecordedActivity,
  recordActivity,
} from '@leadhook/activities';
import { toE164 } from '@leadhook/contracts';
import type { Pool, PoolClient } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import type { QueueSet } from '@leadhook/queue';
import { type CallStatus, isCallStatus, isSmsStatus, type SmsStatus } from './provider.js';
import { statusActivity } from './provider-activities.js';

/**
 * What a provider's webhooks call: an inbound SMS and a status callback. Both go
 * through the activity path (packages/activities), the same one as the worker's
 * own activities and POST /leads/{id}/activities: a reply of STOP there becomes
 * message_received, stopped and the outcome opted_out in one transaction.
 */

export interface ProviderHookDeps {
  pool: Pool;
  queues: QueueSet;
  logger: Logger;
}

export type InboundMessage = {
  body: string;
  /**
   * The carrier's id of the message, with the provider's name: a carrier's retry
   * of the same message is recorded once (table provider_inbound).
   */
  carrier?: { provider: string; messageId: string };
} & ({ leadId: string } | { phone: string });

export type InboundResult =
  | { kind: 'recorded'; leadId: string; activities: RecordedActivity[] }
  | { kind: 'duplicate'; leadId: string }
  | { kind: 'lead_not_found' };

/**
 * Records a reply as message_received. By phone, a carrier's reply goes to the
 * lead this deployment last messaged at that number through that carrier (a
 * phone can be a lead of several accounts, and the reply answers our last
 * message); without such a message, to the newest lead with that number and an
 * active play, else the newest one with that number.
 */
export async function receiveInbound(
  deps: ProviderHookDeps,
  message: InboundMessage,
): Promise<InboundResult> {
  const leadId = 'leadId' in message ? message.leadId : await leadOfReply(deps.pool, message);
  if (leadId === null) return { kind: 'lead_not_found' };
  const result = await inTransaction(deps.pool, async (client): Promise<InboundResult> => {
    if (message.carrier) {
      // A rival delivery of the same message waits here for the first to commit,
      // then finds its row.
      const claimed = await client.query(
        `INSERT INTO provider_inbound (provider, message_id, lead_id) VALUES ($1, $2, $3)
         ON CONFLICT (provider, message_id) DO NOTHING`,
        [message.carrier.provider, message.carrier.messageId, leadId],
      );
      if (claimed.rowCount === 0) {
        // The lead the first delivery went to, whatever was sent since.
        const first = await client.query<{ lead_id: string }>(
          'SELECT lead_id FROM provider_inbound WHERE provider = $1 AND message_id = $2',
          [message.carrier.provider, message.carrier.messageId],
        );
        return { kind: 'duplicate', leadId: first.rows[0]?.lead_id ?? leadId };
      }
    }
    const recorded = await recordActivity(pgRunner(client), {
      leadId,
      type: 'event',
      label: 'message_received',
      data: {
        body: message.body,
        ...(message.carrier
          ? { provider: message.carrier.provider, provider_message_id: message.carrier.messageId }
          : {}),
      },
    });
    if (recorded.kind !== 'recorded') throw new LeadVanished();
    return { kind: 'recorded', leadId, activities: recorded.activities };
  }).catch((err: unknown) => {
    // No such lead (any more): nothing is kept, the carrier's id included.
    if (err instanceof LeadVanished || (err as { code?: unknown }).code === '23503') {
      return { kind: 'lead_not_found' } as const;
    }
    throw err;
  });
  if (result.kind === 'recorded') announce(deps.queues, deps.logger, result.activities);
  return result;
}

/** The lead was deleted between its lookup and the recording. */
class LeadVanished extends Error {}

async function leadOfReply(
  pool: Pool,
  message: { phone: string; carrier?: { provider: string } },
): Promise<string | null> {
  const e164 = toE164(message.phone) ?? message.phone;
  if (message.carrier) {
    const messaged = await leadLastMessaged(pool, message.carrier.provider, e164);
    if (messaged !== null) return messaged;
  }
  return leadByPhone(pool, e164);
}

/**
 * The lead of the newest message or call to a phone ($2) through a provider
 * ($1): a walk down index provider_messages_provider_to_created_at_idx that
 * stops at its first row (inbound.plans.test.ts).
 */
export const LEAD_LAST_MESSAGED_SQL = `SELECT lead_id FROM provider_messages
  WHERE provider = $1 AND "to" = $2 ORDER BY created_at DESC, id DESC LIMIT 1`;

async function leadLastMessaged(
  pool: Pool,
  provider: string,
  phone: string,
): Promise<string | null> {
  const { rows } = await pool.query<{ lead_id: string }>(LEAD_LAST_MESSAGED_SQL, [provider, phone]);
  return rows[0]?.lead_id ?? null;
}

async function leadByPhone(pool: Pool, e164: string): Promise<string | null> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT l.id FROM leads l LEFT JOIN enrollments e ON e.lead_id = l.id
      WHERE l.phone = $1
      ORDER BY coalesce(e.status = 'active', false) DESC, l.created_at DESC, l.id DESC
      LIMIT 1`,
    [e164],
  );
  return rows[0]?.id ?? null;
}

export interface StatusCallback {
  providerMessageId: string;
  status: string;
}

export type StatusCallbackResult =
  | { kind: 'recorded'; activities: RecordedActivity[] }
  | { kind: 'unchanged' }
  | { kind: 'message_not_found' }
  | { kind: 'invalid_status' };

interface LockedMessage {
  id: string;
  lead_id: string;
  enrollment_id: string | null;
  step: number | null;
  channel: string;
  status: string;
}

/**
 * A carrier's late answer about a message or call: updates its record and
 * records the activity it means (message_delivered, message_failed,
 * call_answered, voicemail_left, or the outcome undeliverable). A callback
 * repeating the status already recorded changes nothing, so carriers' retries
 * are harmless.
 */
export async function receiveStatusCallback(
  deps: ProviderHookDeps,
  callback: StatusCallback,
): Promise<StatusCallbackResult> {
  const result = await inTransaction(deps.pool, async (client): Promise<StatusCallbackResult> => {
    const { rows } = await client.query<LockedMessage>(
      `SELECT id, lead_id, enrollment_id, step, channel, status
         FROM provider_messages WHERE id = $1 FOR UPDATE`,
      [callback.providerMessageId],
    );
    const message = rows[0];
    if (!message) return { kind: 'message_not_found' };
    let parsed: { channel: 'sms'; status: SmsStatus } | { channel: 'call'; status: CallStatus };
    if (message.channel === 'sms' && isSmsStatus(callback.status)) {
      parsed = { channel: 'sms', status: callback.status };
    } else if (message.channel === 'call' && isCallStatus(callback.status)) {
      parsed = { channel: 'call', status: callback.status };
    } else {
      return { kind: 'invalid_status' };
    }
    if (message.status === parsed.status) return { kind: 'unchanged' };
    await client.query(
      'UPDATE provider_messages SET status = $2, updated_at = now() WHERE id = $1',
      [message.id, parsed.status],
    );
    const activity = statusActivity(parsed);
    if (!activity) return { kind: 'recorded', activities: [] };
    const recorded = await recordActivity(pgRunner(client), {
      leadId: message.lead_id,
      type: activity.type,
      label: activity.label,
      enrollmentId: message.enrollment_id,
      data: { step: message.step, provider_message_id: message.id, status: parsed.status },
    });
    return {
      kind: 'recorded',
      activities: recorded.kind === 'recorded' ? recorded.activities : [],
    };
  });
  if (result.kind === 'recorded') announce(deps.queues, deps.logger, result.activities);
  return result;
}

/** What a carrier's status callback says about a message or call. */
type StatusReport = {
  /** The carrier's error code, kept with the message (Twilio's ErrorCode). */
  errorCode: string | null;
} & ({ channel: 'sms'; status: SmsStatus | null } | { channel: 'call'; status: CallStatus | null });

/** A carrier's status callback, named by the carrier's own id of the message or call. */
export type CarrierStatus = {
  /** The provider that holds the message (provider_messages.provider). */
  provider: string;
  /** The carrier's id (provider_messages.carrier_id): Twilio's MessageSid or CallSid. */
  carrierId: string;
} & StatusReport;

export type CarrierStatusResult =
  | { kind: 'recorded'; activities: RecordedActivity[] }
  | { kind: 'unchanged' }
  | { kind: 'message_not_found' };

/** holdCarrierStatus's answer: kept for the id's commit, or what the row made of it. */
export type CarrierStatusHoldResult = CarrierStatusResult | { kind: 'held' };

/** A message or call the carrier has not told its fate yet. */
const PENDING_STATUSES = new Set(['sending', 'queued']);

const LOCK_MESSAGE = `SELECT id, lead_id, enrollment_id, step, channel, status
  FROM provider_messages WHERE id = $1 FOR UPDATE`;

/**
 * A carrier's status callback (docs/operations.md, "Twilio's callbacks"): the
 * first final status of a message or call (status not null) is its status,
 * with the activity statusActivity makes of it. The carrier retries and
 * reorders its callbacks: a message that already has a final status keeps it
 * (a late `sent` or a second `delivered` changes nothing), and a progress
 * report (status null) never changes a row. Rows are locked, so two copies of
 * one callback record it once.
 *
 * Locks, in the order every writer of a message's late status takes them: the
 * lead's row (FOR UPDATE, as activity_record takes it), then the message's.
 * A step's transaction holds the lead's lock while its provider commits the
 * carrier's id, then applies the statuses held for that id under the message's
 * lock (applyHeldStatuses): taking the message first here, then waiting for
 * the lead, would close a cycle with it.
 *
 * A message is found only once the sender recorded the carrier's id: a row
 * still `sending` (the worker stopped between the carrier's answer and its
 * write) is message_not_found here; intake then keeps the status
 * (holdCarrierStatus) for the step that commits the id.
 */
export async function receiveCarrierStatus(
  deps: ProviderHookDeps,
  callback: CarrierStatus,
): Promise<CarrierStatusResult> {
  const result = await inTransaction(deps.pool, async (client): Promise<CarrierStatusResult> => {
    // Unlocked first: a progress report, another channel's status or a
    // message with its fate already (a retry) changes nothing and waits for
    // no lock. A final status is checked again under the locks.
    const { rows } = await client.query<{
      id: string;
      lead_id: string;
      channel: string;
      status: string;
    }>(
      `SELECT id, lead_id, channel, status FROM provider_messages
        WHERE provider = $1 AND carrier_id = $2`,
      [callback.provider, callback.carrierId],
    );
    const found = rows[0];
    if (!found) return { kind: 'message_not_found' };
    if (callback.status === null || found.channel !== callback.channel) {
      return { kind: 'unchanged' };
    }
    if (!PENDING_STATUSES.has(found.status)) return { kind: 'unchanged' };
    await client.query('SELECT 1 FROM leads WHERE id = $1 FOR UPDATE', [found.lead_id]);
    const locked = await client.query<LockedMessage>(LOCK_MESSAGE, [found.id]);
    const message = locked.rows[0];
    // Deleted with its lead meanwhile.
    if (!message) return { kind: 'message_not_found' };
    return applyCarrierStatus(client, message, callback);
  });
  if (result.kind === 'recorded') announce(deps.queues, deps.logger, result.activities);
  return result;
}

/**
 * The rule of a carrier's status for its message, shared by receiveCarrierStatus
 * and applyHeldStatuses: the caller holds the lead's lock and the message's
 * (`message` read under it). A pending message takes the first final status
 * and its error code, and the activity statusActivity makes of it is recorded
 * through the activity path; anything else changes nothing.
 */
async function applyCarrierStatus(
  client: PoolClient,
  message: LockedMessage,
  callback: StatusReport,
): Promise<Exclude<CarrierStatusResult, { kind: 'message_not_found' }>> {
  if (callback.status === null || message.channel !== callback.channel) {
    return { kind: 'unchanged' };
  }
  if (!PENDING_STATUSES.has(message.status)) return { kind: 'unchanged' };
  await client.query(
    `UPDATE provider_messages
        SET status = $2, error_code = coalesce($3, error_code), updated_at = now()
      WHERE id = $1`,
    [message.id, callback.status, callback.errorCode],
  );
  const activity = statusActivity(
    callback.channel === 'sms'
      ? { channel: 'sms', status: callback.status }
      : { channel: 'call', status: callback.status },
  );
  if (!activity) return { kind: 'recorded', activities: [] };
  const recorded = await recordActivity(pgRunner(client), {
    leadId: message.lead_id,
    type: activity.type,
    label: activity.label,
    enrollmentId: message.enrollment_id,
    data: {
      step: message.step,
      provider_message_id: message.id,
      status: callback.status,
      ...(callback.errorCode === null ? {} : { error_code: callback.errorCode }),
    },
  });
  return {
    kind: 'recorded',
    activities: recorded.kind === 'recorded' ? recorded.activities : [],
  };
}

/**
 * Keeps a final status whose carrier id no message holds, once intake's looks
 * for it found none (docs/operations.md, "Twilio's callbacks"): in
 * provider_held_statuses, for the step whose provider commits that id
 * (applyHeldStatuses). One statement, provider_status_hold: under the id's
 * advisory lock, which the commit of the id takes too, it keeps the status
 * only if the id is still unknown; if the id was committed meanwhile, the
 * status is applied to its message here instead (receiveCarrierStatus).
 * A progress report (status null) is never kept: it would change nothing.
 */
export async function holdCarrierStatus(
  deps: ProviderHookDeps,
  callback: CarrierStatus,
  receivedAt: Date,
): Promise<CarrierStatusHoldResult> {
  if (callback.status === null) return receiveCarrierStatus(deps, callback);
  const { rows } = await deps.pool.query<{ held: boolean }>(
    'SELECT provider_status_hold($1, $2, $3, $4, $5, $6) AS held',
    [
      callback.provider,
      callback.carrierId,
      callback.channel,
      callback.status,
      callback.errorCode,
      receivedAt,
    ],
  );
  if (rows[0]?.held) return { kind: 'held' };
  return receiveCarrierStatus(deps, callback);
}

interface HeldStatusRow {
  channel: 'sms' | 'call';
  status: string;
  error_code: string | null;
}

/**
 * A held row as the status it was: provider_status_hold kept what
 * twilioStatusReport made of the callback, and the table's CHECK constraints
 * hold the channel and the status to packages/providers' own.
 */
function heldReport(row: HeldStatusRow): StatusReport {
  return row.channel === 'sms'
    ? { channel: 'sms', status: row.status as SmsStatus, errorCode: row.error_code }
    : { channel: 'call', status: row.status as CallStatus, errorCode: row.error_code };
}

/**
 * Applies the statuses intake held for a message's carrier id
 * (holdCarrierStatus) and deletes them, in the caller's transaction: the
 * step's, once its provider committed the id (provider_message_adopt said
 * some wait) and its own activities are recorded, so they follow the send on
 * the lead's history and commit, or roll back, with the step. In the order
 * they were received, each through the rule of receiveCarrierStatus
 * (applyCarrierStatus): the first final status is the message's, with its
 * activity. Answers the activities recorded; the caller announces them after
 * its commit.
 *
 * Exactly once: the held rows are deleted by the statement that reads them,
 * so a second transaction doing the same waits for this one and then finds
 * none; intake keeps no new one for an id once it is committed
 * (provider_status_hold). Locks as receiveCarrierStatus: the lead's (the
 * step's transaction holds it already), then the message's.
 */
export async function applyHeldStatuses(
  client: PoolClient,
  providerMessageId: string,
): Promise<RecordedActivity[]> {
  const { rows: held } = await client.query<HeldStatusRow>(
    `WITH taken AS (
       DELETE FROM provider_held_statuses h USING provider_messages m
        WHERE m.id = $1 AND h.provider = m.provider AND h.carrier_id = m.carrier_id
       RETURNING h.id, h.channel, h.status, h.error_code, h.received_at)
     SELECT channel, status, error_code FROM taken ORDER BY received_at, id`,
    [providerMessageId],
  );
  if (held.length === 0) return [];
  const { rows: leads } = await client.query(
    `SELECT l.id FROM leads l JOIN provider_messages m ON m.lead_id = l.id
      WHERE m.id = $1 FOR UPDATE OF l`,
    [providerMessageId],
  );
  if (leads.length === 0) return [];
  const locked = await client.query<LockedMessage>(LOCK_MESSAGE, [providerMessageId]);
  let message = locked.rows[0];
  const activities: RecordedActivity[] = [];
  for (const status of held) {
    if (!message) break;
    const applied = await applyCarrierStatus(client, message, heldReport(status));
    if (applied.kind === 'recorded') {
      activities.push(...applied.activities);
      message = { ...message, status: status.status };
    }
  }
  return activities;
}

/**
 * The step whose try committed a message's carrier id may still run (the
 * message is `m`): its play is active and at that step, so the claim that
 * would apply the held statuses (applyHeldStatuses) is still to come.
 */
const STEP_STILL_TO_RUN = `EXISTS (SELECT 1 FROM enrollments e
  WHERE e.id = m.enrollment_id AND e.status = 'active' AND e.current_step = m.step)`;

/**
 * Applies held statuses that no step will: their carrier id is committed, but
 * the step's try that committed it did not commit itself (the worker died in
 * between), and its play stopped or moved on before another try (docs/operations.md,
 * "Twilio's callbacks"). The playbook worker's reconciler calls it each round;
 * it reads provider_held_statuses alone when nothing is stranded, which is
 * almost always. Each message in a transaction of its own, under the lead's
 * lock, which a step's claim takes too: the step is checked again under it, so
 * a step that can still run keeps its statuses, and one that ran meanwhile
 * has taken them. Answers how many activities were recorded (announced).
 */
export async function applyStrandedHeldStatuses(
  deps: ProviderHookDeps,
  limit = 100,
): Promise<number> {
  const { rows } = await deps.pool.query<{ id: string; lead_id: string }>(
    `SELECT DISTINCT m.id, m.lead_id FROM provider_held_statuses h
       JOIN provider_messages m ON m.provider = h.provider AND m.carrier_id = h.carrier_id
      WHERE NOT ${STEP_STILL_TO_RUN}
      LIMIT $1`,
    [limit],
  );
  let recorded = 0;
  for (const message of rows) {
    const activities = await inTransaction(deps.pool, async (client) => {
      await client.query('SELECT 1 FROM leads WHERE id = $1 FOR UPDATE', [message.lead_id]);
      const pending = await client.query(
        `SELECT 1 FROM provider_messages m WHERE m.id = $1 AND ${STEP_STILL_TO_RUN}`,
        [message.id],
      );
      if (pending.rows.length > 0) return [];
      return applyHeldStatuses(client, message.id);
    });
    announce(deps.queues, deps.logger, activities);
    recorded += activities.length;
  }
  return recorded;
}
