-- activity_insert: one activity row and its outbox row (the webhook worker's
-- doorbell), for activity_record.
--
--   Takes:
--     p_id, p_account_id, p_lead_id, p_enrollment_id, p_type, p_label, p_note,
--     p_data: the activity's columns (the id from the caller's p_ids)
--   Returns:
--     the activity's occurred_at
--   Guarantees:
--     - the activity and its outbox row are written in the caller's transaction:
--       a crash leaves both or neither, so no activity misses its fan-out
--     - the outbox row's created_at is the activity's created_at (both the
--       transaction's now(), the value stored in one copied to the other): the
--       outbox is partitioned by day of created_at
--       (docs/operations.md, "Outbox partitions"), and webhook_fan_out finds
--       an activity's open row by it, in that one day's partition
CREATE OR REPLACE FUNCTION activity_insert(
  p_id text, p_account_id text, p_lead_id text, p_enrollment_id text,
  p_type text, p_label text, p_note text, p_data jsonb)
RETURNS timestamptz
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_at timestamptz;
  v_created timestamptz;
BEGIN
  IF p_id IS NULL THEN
    RAISE EXCEPTION 'activity_insert: no activity id left for %', p_label;
  END IF;
  INSERT INTO activities (id, account_id, lead_id, enrollment_id, activity_type, activity_label, note, data, occurred_at)
  VALUES (p_id, p_account_id, p_lead_id, p_enrollment_id, p_type, p_label, p_note, coalesce(p_data, '{}'::jsonb),
          clock_timestamp())
  RETURNING occurred_at, created_at INTO v_at, v_created;
  INSERT INTO outbox (topic, payload, created_at)
  VALUES ('activity', jsonb_build_object('activity_id', p_id), v_created);
  RETURN v_at;
END;
$$;
