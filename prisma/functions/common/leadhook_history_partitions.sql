-- leadhook_history_partitions: the history tables partitioned by month of id
-- (docs/operations.md, "History partitions"), their monthly partitions.
--
--   Takes:
--     nothing
--   Returns:
--     one row per monthly partition that exists: r_table, r_partition
--     (<table>_pYYYYMM), r_month (its first instant, UTC), r_from and r_to (its
--     bounds), in the order retention drops them: oldest month first and, within
--     a month, a referencing table before the table it references (attempts,
--     deliveries, activities, submissions)
--   Guarantees:
--     - the catch-all partitions (<table>_p_before, <table>_p_after: ids made
--       before 2000 or after 2100, and ids of no ULID shape) are never listed
CREATE OR REPLACE FUNCTION leadhook_history_partitions()
RETURNS TABLE (r_table text, r_partition text, r_month timestamptz, r_from text, r_to text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT t.name, c.relname::text,
         to_timestamp(right(c.relname, 6), 'YYYYMM')::timestamp AT TIME ZONE 'UTC',
         leadhook_id_floor(t.prefix, to_timestamp(right(c.relname, 6), 'YYYYMM')::timestamp AT TIME ZONE 'UTC'),
         leadhook_id_floor(t.prefix, (to_timestamp(right(c.relname, 6), 'YYYYMM')::timestamp + interval '1 month') AT TIME ZONE 'UTC')
    FROM (VALUES (1, 'attempts', 'att'), (2, 'deliveries', 'dlv'),
                 (3, 'activities', 'act'), (4, 'submissions', 'subm')) AS t(ord, name, prefix)
    JOIN pg_inherits i ON i.inhparent = to_regclass(t.name)
    JOIN pg_class c ON c.oid = i.inhrelid
   WHERE c.relname ~ ('^' || t.name || '_p[0-9]{6}$')
   ORDER BY 3, t.ord;
END $$;
