import type pg from 'pg';

/**
 * Rows of `table` the session's open transaction has fetched, by sequential
 * scans and through its indexes (pg_stat_xact_user_tables): a plan that reads a
 * whole table, or walks an index and filters the rows it fetches, shows here
 * even without a sequential scan (the hot-path SQL functions run with
 * enable_seqscan off). Index entries an index condition skips, and index-only
 * scans, do not count. Tests use it to hold a keyed statement to a few rows
 * whatever the table holds. A partitioned table's rows are its partitions'
 * (docs/operations.md, "History partitions", "Outbox partitions"): they are
 * summed, so a plan that walks every partition shows as much as one that reads
 * one. (pg_partition_tree lists nothing for a table that is not partitioned: the
 * table itself is added.)
 */
export async function rowsRead(
  client: Pick<pg.ClientBase, 'query'>,
  table: string,
): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS n
       FROM pg_stat_xact_user_tables
      WHERE relid IN (SELECT relid FROM pg_partition_tree(to_regclass($1))
                      UNION SELECT to_regclass($1))`,
    [table],
  );
  return rows[0]?.n ?? 0;
}
