-- playbook_step_record: records what a claimed step did and ends the play after
-- its last step.
--
--   Takes:
--     p_enrollment_id, p_lead_id, p_items ([{type, label, note, data}], in order,
--     each through activity_record), p_last (for the last step: {steps,
--     completed_note, unreachable_note}; NULL otherwise), p_ids
--   Returns:
--     a row per activity recorded, in order, then one row with a NULL r_id whose
--     r_status is the play's status afterwards
--   Guarantees:
--     - a play still active at its last step ends: status completed, `completed`,
--       then the outcome unreachable unless the lead replied (message_received) or
--       answered a call. Status first: the activity path adds `stopped` before an
--       outcome only for an active play, and this play ended, it was not stopped
--     - locks as activity_record (the lead's row), in the caller's transaction
CREATE OR REPLACE FUNCTION playbook_step_record(
  p_enrollment_id text, p_lead_id text, p_items jsonb, p_last jsonb, p_ids text[])
RETURNS TABLE (r_status text, r_id text, r_type text, r_label text, r_occurred_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_it record;
  v_rec record;
  v_n integer := 0;
  v_status text;
  v_unreachable boolean;
BEGIN
  FOR v_it IN
    SELECT x.type, x.label, x.note, x.data FROM jsonb_to_recordset(coalesce(p_items, '[]'::jsonb))
        AS x(type text, label text, note text, data jsonb)
  LOOP
    FOR v_rec IN
      SELECT * FROM activity_record(p_lead_id, NULL, v_it.type, v_it.label, v_it.note, v_it.data,
                                    p_enrollment_id, false, p_ids[v_n + 1:])
    LOOP
      IF v_rec.r_kind = 'recorded' THEN
        v_n := v_n + 1;
        r_id := v_rec.r_id; r_type := v_rec.r_type; r_label := v_rec.r_label; r_occurred_at := v_rec.r_occurred_at;
        RETURN NEXT;
      END IF;
    END LOOP;
  END LOOP;

  SELECT e.status INTO v_status FROM enrollments e WHERE e.id = p_enrollment_id;
  IF v_status = 'active' AND p_last IS NOT NULL THEN
    UPDATE enrollments SET status = 'completed', next_run_at = NULL, updated_at = now() WHERE id = p_enrollment_id;
    v_status := 'completed';
    -- The outcome only for a lead that never answered; checked before `completed`
    -- is written, which is neither label.
    v_unreachable := NOT EXISTS (SELECT 1 FROM activities a
                                  WHERE a.lead_id = p_lead_id
                                    AND a.activity_label IN ('message_received', 'call_answered'));
    FOR v_it IN
      SELECT x.type, x.label, x.note, x.data FROM (VALUES
        (1, 'event', 'completed', p_last->>'completed_note', jsonb_build_object('steps', (p_last->>'steps')::integer)),
        (2, 'outcome', 'unreachable', p_last->>'unreachable_note', '{}'::jsonb)) AS x(n, type, label, note, data)
       WHERE x.n = 1 OR v_unreachable
       ORDER BY x.n
    LOOP
      FOR v_rec IN
        SELECT * FROM activity_record(p_lead_id, NULL, v_it.type, v_it.label, v_it.note, v_it.data,
                                      p_enrollment_id, false, p_ids[v_n + 1:])
      LOOP
        IF v_rec.r_kind = 'recorded' THEN
          v_n := v_n + 1;
          r_id := v_rec.r_id; r_type := v_rec.r_type; r_label := v_rec.r_label;
          r_occurred_at := v_rec.r_occurred_at;
          RETURN NEXT;
        END IF;
      END LOOP;
    END LOOP;
  END IF;

  r_status := v_status;
  r_id := NULL; r_type := NULL; r_label := NULL; r_occurred_at := NULL;
  RETURN NEXT;
END;
$$;
