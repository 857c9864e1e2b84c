-- leadhook_history_partitions_ensure: creates the monthly partitions of the
-- history tables that a range of months lacks
-- (docs/operations.md, "History partitions"). The partition job calls it ahead
-- of time; the conversion migration and tests that write history in the past
-- call it for their months.
--
--   Takes:
--     p_from, p_through: every month (UTC) from p_from's to p_through's
--   Returns:
--     the partitions created (<table>_pYYYYMM), none when all exist
--   Guarantees:
--     - partition <table>_pYYYYMM holds the ids of the month, from
--       leadhook_id_floor(prefix, month) to that of the next month; its indexes,
--       checks and foreign keys are the parent's (CREATE TABLE ... PARTITION OF)
--     - idempotent: a month whose partition exists is left alone; months before
--       2000 or from 2100 are the catch-all partitions' and are skipped, and so is
--       a table not (yet) partitioned
--     - CREATE TABLE ... PARTITION OF locks the parent (ACCESS EXCLUSIVE) for an
--       instant: the caller sets a lock_timeout and tries again later
CREATE OR REPLACE FUNCTION leadhook_history_partitions_ensure(p_from timestamptz, p_through timestamptz)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_table record;
  v_month timestamp;
  v_name text;
BEGIN
  FOR v_table IN
    SELECT * FROM (VALUES ('submissions', 'subm'), ('activities', 'act'),
                          ('deliveries', 'dlv'), ('attempts', 'att')) AS t(name, prefix)
     WHERE EXISTS (SELECT 1 FROM pg_partitioned_table p WHERE p.partrelid = to_regclass(t.name))
  LOOP
    v_month := greatest(date_trunc('month', p_from AT TIME ZONE 'UTC'), timestamp '2000-01-01');
    WHILE v_month <= least(p_through AT TIME ZONE 'UTC', timestamp '2099-12-31') LOOP
      v_name := v_table.name || '_p' || to_char(v_month, 'YYYYMM');
      IF to_regclass(v_name) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                       v_name, v_table.name,
                       leadhook_id_floor(v_table.prefix, v_month AT TIME ZONE 'UTC'),
                       leadhook_id_floor(v_table.prefix, (v_month + interval '1 month') AT TIME ZONE 'UTC'));
        RETURN NEXT v_name;
      END IF;
      v_month := v_month + interval '1 month';
    END LOOP;
  END LOOP;
END $$;
