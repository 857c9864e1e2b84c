-- leadhook_outbox_partitions_ensure: creates the outbox's daily partitions that a
-- range of days lacks (docs/operations.md, "Outbox partitions"). The partition
-- job calls it ahead of time; the conversion migration and tests that write
-- outbox rows in the past call it for their days.
--
--   Takes:
--     p_from, p_through: every day (UTC) from p_from's to p_through's
--   Returns:
--     the partitions created (outbox_pYYYYMMDD), none when all exist
--   Guarantees:
--     - partition outbox_pYYYYMMDD holds the rows created that day (UTC), from
--       its midnight to the next; its indexes are the parent's
--     - idempotent: a day whose partition exists is left alone; days before 2000
--       or from 2100 are the catch-all partitions' and are skipped, and so is an
--       outbox not (yet) partitioned
--     - never blocks the outbox's readers and writers: each day is created as a
--       table of its own (LIKE outbox) and then attached, which takes SHARE
--       UPDATE EXCLUSIVE on outbox (CREATE TABLE ... PARTITION OF would take
--       ACCESS EXCLUSIVE, queueing every intake and fan-out behind the slowest
--       statement that reads the outbox); the caller still sets a lock_timeout
CREATE OR REPLACE FUNCTION leadhook_outbox_partitions_ensure(p_from timestamptz, p_through timestamptz)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_day timestamp;
  v_name text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_partitioned_table p WHERE p.partrelid = to_regclass('outbox')) THEN
    RETURN;
  END IF;
  v_day := greatest(date_trunc('day', p_from AT TIME ZONE 'UTC'), timestamp '2000-01-01');
  WHILE v_day <= least(p_through AT TIME ZONE 'UTC', timestamp '2099-12-31') LOOP
    v_name := 'outbox_p' || to_char(v_day, 'YYYYMMDD');
    IF to_regclass(v_name) IS NULL THEN
      EXECUTE format('CREATE TABLE %I (LIKE outbox INCLUDING DEFAULTS INCLUDING CONSTRAINTS'
                     ' INCLUDING STORAGE INCLUDING STATISTICS)', v_name);
      EXECUTE format('ALTER TABLE outbox ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                     v_name, v_day AT TIME ZONE 'UTC', (v_day + interval '1 day') AT TIME ZONE 'UTC');
      RETURN NEXT v_name;
    END IF;
    v_day := v_day + interval '1 day';
  END LOOP;
END $$;
