import type { Pool, PoolClient } from '@leadhook/db';

/**
 * Runs `round` on one pooled connection while it holds the session-level
 * advisory lock `key`, or resolves null at once when another process holds it:
 * the periodic jobs every worker runs (retention, partitions) work one copy at
 * a time, and the others skip the round.
 *
 * The lock is released when the round ends. A connection that failed is
 * dropped rather than pooled: its session, and the lock with it, ends, so a
 * round that died mid-way never leaves the lock held.
 */
export async function withSessionLock<T>(
  pool: Pool,
  key: number,
  round: (client: PoolClient) => Promise<T>,
): Promise<T | null> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [key],
    );
    if (!rows[0]?.locked) return null;
    try {
      return await round(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.release(failure);
  }
}
