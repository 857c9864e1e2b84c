-- The outbox becomes partitioned by RANGE of created_at, one partition a day
-- (docs/operations.md, "Outbox partitions"), so that the partition job drops
-- whole days past OUTBOX_RETENTION instead of the retention job deleting closed
-- rows one batch at a time: no DELETE on the hottest table, no dead rows for
-- vacuum, and outbox_done_idx (which only served that DELETE) is not made again.
--
-- Hand-written: Prisma's schema language cannot express partitioning.
-- schema.prisma describes the table's columns, its primary key (id, created_at)
-- and indexes. A unique index of a partitioned table must hold the partition
-- key, hence the key's second column; id alone stays unique, every id coming from
-- the one sequence, which the new table keeps (outbox_id_seq, owned by its id):
-- ids go on from where they were.
--
-- Before the copy, the open rows are aligned with what the consumers look for
-- (prisma/functions/webhook/webhook_fan_out.sql, playbook/playbook_enroll.sql):
-- an open `activity` row whose created_at differs from its activity's gets the
-- activity's (activity_insert writes them equal; a row written otherwise would
-- never be found again), and an open `enrollment` row created before its lead
-- gets the lead's created_at. Rows written by the current functions already
-- are; nothing else of any row changes.
--
-- The table is rewritten: renamed, a partitioned table of the same columns,
-- defaults and checks created under its name, with a partition for each day
-- (UTC) that has rows and for today and the seven days ahead (the partition
-- job's horizon, packages/worker-runtime/src/partitions.ts), every row copied,
-- the old table dropped, then the primary key and the indexes made again.
-- Rows created before 2000 or from 2100 go to the catch-all partitions
-- outbox_p_before and outbox_p_after: no row is refused. On a big outbox this
-- takes its size in time and disk (docs/operations.md, "Migrations").
DO $convert$
DECLARE
  v_indexes text[];
  v_index text;
  v_sequence text := pg_get_serial_sequence('outbox', 'id');
  v_day timestamptz;
BEGIN
  UPDATE outbox o SET created_at = a.created_at
    FROM activities a
   WHERE o.topic = 'activity' AND o.done_at IS NULL
     AND a.id = o.payload->>'activity_id' AND o.created_at <> a.created_at;
  UPDATE outbox o SET created_at = l.created_at
    FROM leads l
   WHERE o.topic = 'enrollment' AND o.done_at IS NULL
     AND l.id = o.payload->>'lead_id' AND o.created_at < l.created_at;

  -- Its indexes but the primary key and the retention job's outbox_done_idx,
  -- as they are defined now (on "outbox", made again on the new table).
  SELECT coalesce(array_agg(pg_get_indexdef(i.indexrelid)), ARRAY[]::text[])
    INTO v_indexes
    FROM pg_index i
   WHERE i.indrelid = 'outbox'::regclass AND NOT i.indisprimary
     AND i.indexrelid <> coalesce(to_regclass('outbox_done_idx'), 0);

  ALTER TABLE outbox RENAME TO outbox_unpartitioned;
  CREATE TABLE outbox (LIKE outbox_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS
                       INCLUDING COMMENTS INCLUDING STORAGE INCLUDING STATISTICS)
    PARTITION BY RANGE (created_at);
  -- The sequence is the old table's (its id's default names it): it moves to the
  -- new one before the old is dropped, which would drop it with it.
  IF v_sequence IS NOT NULL THEN
    EXECUTE format('ALTER SEQUENCE %s OWNED BY outbox.id', v_sequence);
  END IF;
  CREATE TABLE outbox_p_before PARTITION OF outbox
    FOR VALUES FROM (MINVALUE) TO ('2000-01-01 00:00:00+00');
  CREATE TABLE outbox_p_after PARTITION OF outbox
    FOR VALUES FROM ('2100-01-01 00:00:00+00') TO (MAXVALUE);

  FOR v_day IN
    SELECT DISTINCT date_trunc('day', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
      FROM outbox_unpartitioned
     WHERE created_at >= '2000-01-01 00:00:00+00' AND created_at < '2100-01-01 00:00:00+00'
  LOOP
    PERFORM leadhook_outbox_partitions_ensure(v_day, v_day);
  END LOOP;
  PERFORM leadhook_outbox_partitions_ensure(now(), now() + interval '7 days');

  INSERT INTO outbox SELECT * FROM outbox_unpartitioned;
  DROP TABLE outbox_unpartitioned;
  ALTER TABLE outbox ADD CONSTRAINT outbox_pkey PRIMARY KEY (id, created_at);
  FOREACH v_index IN ARRAY v_indexes LOOP
    EXECUTE v_index;
  END LOOP;
  ANALYZE outbox;
END $convert$;
