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
CREATE OR REPLACE FUNCTION activity_insert(
  p_id text, p_account_id text, p_lead_id text, p_enrollment_id text,
  p_type text, p_label text, p_note text, p_data jsonb)
RETURNS timestamptz
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_at timestamptz;
BEGIN
  IF p_id IS NULL THEN
    RAISE EXCEPTION 'activity_insert: no activity id left for %', p_label;
  END IF;
  INSERT INTO activities (id, account_id, lead_id, enrollment_id, activity_type, activity_label, note, data, occurred_at)
  VALUES (p_id, p_account_id, p_lead_id, p_enrollment_id, p_type, p_label, p_note, coalesce(p_data, '{}'::jsonb),
          clock_timestamp())
  RETURNING occurred_at INTO v_at;
  INSERT INTO outbox (topic, payload) VALUES ('activity', jsonb_build_object('activity_id', p_id));
  RETURN v_at;
END;
$$;
