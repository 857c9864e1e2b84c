-- The history tables (submissions, activities, deliveries, attempts) become
-- partitioned by RANGE of their id, one partition a month
-- (docs/operations.md, "History partitions"). Ids are ULIDs, whose first characters are the time they were
-- made, so a month of ids is a range of ids: the primary key id alone stays a
-- valid key of the partitioned table, every foreign key to it stays, and a read
-- by id is pruned to one partition.
--
-- Hand-written: Prisma's schema language cannot express partitioning.
-- schema.prisma keeps describing the tables' columns and indexes; two of its
-- unique keys lack the partition key and are plain indexes here, their
-- guarantees held by the functions that write the rows, under the locks they
-- take (docs/operations.md, "History partitions"):
--   activities_one_outcome_per_lead: activity_record checks leads.outcome under
--     the lead's row lock and sets it in the same transaction;
--   deliveries (activity_id, subscription_id): webhook_fan_out, the only writer,
--     inserts only pairs not in deliveries, under the lead's advisory lock.
--
-- Each table is rewritten: renamed, a partitioned table of the same columns,
-- checks and defaults created under its name with a partition per month from
-- its oldest row's month to three months ahead (plus the months of ids made
-- further ahead, if any), every row copied, the old table dropped, then the
-- primary key, the indexes and the foreign keys (to and from it) made again.
-- Ids made before 2000 or from 2100, or of no ULID shape, go to the catch-all
-- partitions <table>_p_before and <table>_p_after: no row is refused. On a big
-- database this takes the tables' size in time and disk
-- (docs/operations.md, "Migrations").
DO $convert$
DECLARE
  v_table record;
  v_fk record;
  v_indexes text[];
  v_index text;
  v_first text;
  v_month timestamp;
  v_horizon timestamp := date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months';
  v_id text;
BEGIN
  -- Every foreign key from or to the four tables, dropped now and made again
  -- (validated once) when all four are converted.
  CREATE TEMPORARY TABLE history_fks ON COMMIT DROP AS
    SELECT c.conrelid::regclass::text AS tbl, c.conname::text AS name, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c
     WHERE c.contype = 'f'
       AND (c.conrelid IN ('submissions'::regclass, 'activities'::regclass, 'deliveries'::regclass, 'attempts'::regclass)
         OR c.confrelid IN ('submissions'::regclass, 'activities'::regclass, 'deliveries'::regclass, 'attempts'::regclass));
  FOR v_fk IN SELECT * FROM history_fks LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', v_fk.tbl, v_fk.name);
  END LOOP;

  FOR v_table IN
    SELECT * FROM (VALUES ('submissions', 'subm'), ('activities', 'act'),
                          ('deliveries', 'dlv'), ('attempts', 'att')) AS t(name, prefix)
  LOOP
    -- Its indexes but the primary key; a unique index without id cannot exist on
    -- the partitioned table and becomes a plain one (see the header).
    SELECT coalesce(array_agg(
             CASE WHEN i.indisunique AND NOT ('id' = ANY (
                    SELECT a.attname FROM pg_attribute a
                     WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)))
                  THEN regexp_replace(pg_get_indexdef(i.indexrelid), '^CREATE UNIQUE INDEX', 'CREATE INDEX')
                  ELSE pg_get_indexdef(i.indexrelid) END), ARRAY[]::text[])
      INTO v_indexes
      FROM pg_index i
     WHERE i.indrelid = v_table.name::regclass AND NOT i.indisprimary;

    EXECUTE format('ALTER TABLE %I RENAME TO %I', v_table.name, v_table.name || '_unpartitioned');
    EXECUTE format(
      'CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS'
      ' INCLUDING STORAGE INCLUDING STATISTICS) PARTITION BY RANGE (id)',
      v_table.name, v_table.name || '_unpartitioned');
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (MINVALUE) TO (%L)',
                   v_table.name || '_p_before', v_table.name,
                   leadhook_id_floor(v_table.prefix, timestamptz '2000-01-01 00:00:00+00'));
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (MAXVALUE)',
                   v_table.name || '_p_after', v_table.name,
                   leadhook_id_floor(v_table.prefix, timestamptz '2100-01-01 00:00:00+00'));

    -- Every month from the oldest row's (ids from 2000 on) to three ahead.
    EXECUTE format('SELECT min(id) FROM %I WHERE id >= $1 AND id < $2', v_table.name || '_unpartitioned')
       INTO v_first
      USING leadhook_id_floor(v_table.prefix, timestamptz '2000-01-01 00:00:00+00'),
            leadhook_id_floor(v_table.prefix, timestamptz '2100-01-01 00:00:00+00');
    -- (An id of no ULID shape within the range: every month from 2000.)
    v_month := CASE WHEN v_first IS NULL THEN date_trunc('month', now() AT TIME ZONE 'UTC')
                    ELSE least(coalesce(date_trunc('month', leadhook_id_time(v_first) AT TIME ZONE 'UTC'),
                                        timestamp '2000-01-01'),
                               date_trunc('month', now() AT TIME ZONE 'UTC')) END;
    PERFORM leadhook_history_partitions_ensure(v_month AT TIME ZONE 'UTC', v_horizon AT TIME ZONE 'UTC');
    -- The months of ids made beyond that (a clock ahead), one by one.
    v_month := v_horizon + interval '1 month';
    LOOP
      EXECUTE format('SELECT min(id) FROM %I WHERE id >= $1 AND id < $2', v_table.name || '_unpartitioned')
         INTO v_id
        USING leadhook_id_floor(v_table.prefix, v_month AT TIME ZONE 'UTC'),
              leadhook_id_floor(v_table.prefix, timestamptz '2100-01-01 00:00:00+00');
      EXIT WHEN v_id IS NULL;
      IF leadhook_id_time(v_id) IS NULL THEN
        -- An id of no ULID shape: every month up to 2100.
        PERFORM leadhook_history_partitions_ensure(v_month AT TIME ZONE 'UTC', timestamptz '2099-12-01 00:00:00+00');
        EXIT;
      END IF;
      v_month := greatest(date_trunc('month', leadhook_id_time(v_id) AT TIME ZONE 'UTC'), v_month);
      PERFORM leadhook_history_partitions_ensure(v_month AT TIME ZONE 'UTC', v_month AT TIME ZONE 'UTC');
      v_month := v_month + interval '1 month';
    END LOOP;

    EXECUTE format('INSERT INTO %I SELECT * FROM %I', v_table.name, v_table.name || '_unpartitioned');
    EXECUTE format('DROP TABLE %I', v_table.name || '_unpartitioned');
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id)', v_table.name, v_table.name || '_pkey');
    FOREACH v_index IN ARRAY v_indexes LOOP
      EXECUTE v_index;
    END LOOP;
    EXECUTE format('ANALYZE %I', v_table.name);
  END LOOP;

  FOR v_fk IN SELECT * FROM history_fks LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', v_fk.tbl, v_fk.name, v_fk.def);
  END LOOP;
END $convert$;
