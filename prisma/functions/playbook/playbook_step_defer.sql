-- playbook_step_defer: moves a play's step to p_until (a contact window) and
-- records `contact_deferred`.
--
--   Takes:
--     p_enrollment_id, p_step, p_until, p_note, p_data (the event's), p_ids
--   Returns:
--     a row per activity recorded; none when the play is gone, finished, past this
--     step or already deferred to p_until
--   Guarantees:
--     - the lead's row lock (FOR NO KEY UPDATE) first, then the move and the event
--       in the caller's transaction
--     - deferring twice to the same time records once
--     - the play is updated by its key at any table size (as playbook_step_claim)
CREATE OR REPLACE FUNCTION playbook_step_defer(
  p_enrollment_id text, p_step integer, p_until timestamptz, p_note text, p_data jsonb, p_ids text[])
RETURNS TABLE (r_id text, r_type text, r_label text, r_occurred_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_lead_id text;
  v_rec record;
BEGIN
  -- The lead's lock first (as every writer of a lead's play), then the move.
  SELECT l.id INTO v_lead_id
    FROM enrollments e JOIN leads l ON l.id = e.lead_id
   WHERE e.id = p_enrollment_id
     FOR NO KEY UPDATE OF l;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE enrollments SET next_run_at = p_until, updated_at = now()
   WHERE id = p_enrollment_id AND current_step = p_step AND status NOT IN ('completed', 'stopped')
     AND next_run_at IS DISTINCT FROM p_until;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  FOR v_rec IN
    SELECT * FROM activity_record(v_lead_id, NULL, 'event', 'contact_deferred', p_note, p_data,
                                  p_enrollment_id, false, p_ids)
  LOOP
    IF v_rec.r_kind = 'recorded' THEN
      r_id := v_rec.r_id; r_type := v_rec.r_type; r_label := v_rec.r_label; r_occurred_at := v_rec.r_occurred_at;
      RETURN NEXT;
    END IF;
  END LOOP;
END;
$$;
