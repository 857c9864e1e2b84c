import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@leadhook/db';
import { QueueSet } from '@leadhook/queue';
import { TEST_REDIS_URL } from './settings.js';

/** What a test of a worker's outbox relay sees: see {@link withOutboxRows}. */
export interface OutboxRows {
  pool: Pool;
  /** The queues under the worker's prefix (enrollment and activity among them). */
  queues: QueueSet;
  /** The enrollment row's lead and the activity row's activity (ids of no row). */
  leadId: string;
  activityId: string;
}

/**
 * One due outbox row of each relayed topic (an enrollment and an activity,
 * created `ageSeconds` ago) for a worker on `databaseUrl` and queue prefix
 * `prefix` to relay, handed to `test`; afterwards the pool is closed and both
 * queues emptied.
 */
export async function withOutboxRows(
  databaseUrl: string,
  prefix: string,
  ageSeconds: number,
  test: (rows: OutboxRows) => Promise<void>,
): Promise<void> {
  const pool = createPool({ databaseUrl, max: 1 });
  const queues = new QueueSet({ redisUrl: TEST_REDIS_URL, prefix });
  const leadId = `lead_${randomBytes(6).toString('hex')}`;
  const activityId = `act_${randomBytes(6).toString('hex')}`;
  try {
    await pool.query(
      `INSERT INTO outbox (topic, payload, created_at, next_relay_at)
       VALUES ('enrollment', $1, now() - make_interval(secs => $3), now()),
              ('activity', $2, now() - make_interval(secs => $3), now())`,
      [{ lead_id: leadId }, { activity_id: activityId }, ageSeconds],
    );
    await test({ pool, queues, leadId, activityId });
  } finally {
    await pool.end();
    for (const topic of ['enrollment', 'activity'] as const) {
      await queues.get(topic).obliterate({ force: true });
    }
    await queues.close();
  }
}
