-- leadhook_outbox_partitions: the outbox partitioned by day of created_at
-- (docs/operations.md, "Outbox partitions"), its daily partitions.
--
--   Takes:
--     nothing
--   Returns:
--     one row per daily partition attached (or being detached): r_partition
--     (outbox_pYYYYMMDD) and r_day (its first instant, UTC), oldest first; the
--     partition holds the rows created from r_day to r_day + 1 day
--   Guarantees:
--     - the catch-all partitions (outbox_p_before, outbox_p_after: rows created
--       before 2000 or from 2100, which only a conversion can bring) are never
--       listed
CREATE OR REPLACE FUNCTION leadhook_outbox_partitions()
RETURNS TABLE (r_partition text, r_day timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT c.relname::text, to_date(right(c.relname, 8), 'YYYYMMDD')::timestamp AT TIME ZONE 'UTC'
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = to_regclass('outbox')
     AND c.relname ~ '^outbox_p[0-9]{8}$'
   ORDER BY 2;
END $$;
