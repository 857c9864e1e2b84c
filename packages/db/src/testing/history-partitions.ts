import type pg from 'pg';

/**
 * Creates the history tables' monthly partitions of the `months` before this
 * one (docs/operations.md, "History partitions"): a test database has this month
 * and three ahead, and the hot path's row-count tests run with a year of months
 * present, as a deployment that keeps a year has, so a statement that walks every
 * partition rather than the rows it needs shows in rowsRead.
 */
export async function addPastHistoryPartitions(
  client: Pick<pg.ClientBase, 'query'>,
  months = 12,
): Promise<void> {
  await client.query(
    `SELECT leadhook_history_partitions_ensure(now() - make_interval(months => $1), now())`,
    [months],
  );
}
