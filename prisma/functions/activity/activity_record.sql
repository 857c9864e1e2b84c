-- activity_record: THE activity path (docs/api.md, "Activities"), in the
-- caller's transaction. packages/activities and the playbook functions call it.
--
--   Takes:
--     p_lead_id, p_account_id (NULL: any account; else it scopes the lead, so
--     another account's lead is not found), p_type, p_label, p_note, p_data,
--     p_enrollment_id, p_stop (a reply that is a STOP), p_ids (the ids to use, in
--     order: ULIDs from packages/db newId, so a call's activities sort by id)
--   Returns:
--     one row per activity recorded (r_kind 'recorded'), or one row
--     'lead_not_found' or 'outcome_exists' (with the existing outcome) and no change
--   Guarantees:
--     - the lead's row lock (FOR UPDATE) serialises everything recorded on a lead,
--       so the one-outcome check cannot race: activities is partitioned by month
--       and cannot have a unique index on the lead, so this lock and leads.outcome,
--       set in the same transaction, are the guarantee
--       (docs/operations.md, "History partitions")
--     - an outcome stops an active play, with a `stopped` event first, and is set
--       on the lead (opted_out also sets opted_out)
--     - p_stop: after the reply, the play ends, `stopped` is recorded (even with no
--       play running), the lead is opted out, and the outcome opted_out follows
--       unless the lead already had one
--     - each activity gets its outbox row (activity_insert)
--     - a STOP (or the outcome opted_out) puts the lead's phone on the account's
--       do-not-contact list (table suppressions; a phone already there keeps its
--       first entry), in this transaction, under the phone's exclusive advisory
--       lock: a step claimed for another lead with that phone
--       (playbook_step_claim holds it shared) either commits its send before
--       this commits, or waits and then sees the entry (docs/api.md,
--       "Do-not-contact")
CREATE OR REPLACE FUNCTION activity_record(
  p_lead_id text, p_account_id text, p_type text, p_label text, p_note text,
  p_data jsonb, p_enrollment_id text, p_stop boolean, p_ids text[])
RETURNS TABLE (r_kind text, r_id text, r_type text, r_label text, r_occurred_at timestamptz, r_outcome text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_lead record;
  v_enrollment_id text;
  v_enrollment_status text;
  v_play_id text;
  v_n integer := 0;
  v_cause text;
BEGIN
  SELECT l.id, l.account_id, l.outcome, l.phone INTO v_lead FROM leads l WHERE l.id = p_lead_id FOR UPDATE;
  IF NOT FOUND OR (p_account_id IS NOT NULL AND v_lead.account_id <> p_account_id) THEN
    r_kind := 'lead_not_found';
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_type = 'outcome' AND v_lead.outcome IS NOT NULL THEN
    r_kind := 'outcome_exists';
    r_outcome := v_lead.outcome;
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT e.id, e.status INTO v_play_id, v_enrollment_status FROM enrollments e WHERE e.lead_id = p_lead_id;
  v_enrollment_id := coalesce(p_enrollment_id, v_play_id);
  r_kind := 'recorded';

  IF p_type = 'outcome' THEN
    -- Any outcome stops the play, and says so first.
    IF v_enrollment_status = 'active' THEN
      UPDATE enrollments SET status = 'stopped', next_run_at = NULL, updated_at = now() WHERE id = v_play_id;
      v_enrollment_status := 'stopped';
      v_n := v_n + 1;
      r_id := p_ids[v_n]; r_type := 'event'; r_label := 'stopped';
      r_occurred_at := activity_insert(r_id, v_lead.account_id, p_lead_id, v_enrollment_id, r_type, r_label,
                                       format('Outreach stopped: outcome %s.', p_label),
                                       jsonb_build_object('reason', p_label));
      RETURN NEXT;
    END IF;
    UPDATE leads SET outcome = p_label, opted_out = opted_out OR p_label = 'opted_out', updated_at = now()
     WHERE id = p_lead_id;
  END IF;

  v_n := v_n + 1;
  r_id := p_ids[v_n]; r_type := p_type; r_label := p_label;
  r_occurred_at := activity_insert(r_id, v_lead.account_id, p_lead_id, v_enrollment_id, p_type, p_label, p_note, p_data);
  RETURN NEXT;
  v_cause := r_id;

  IF p_stop OR (p_type = 'outcome' AND p_label = 'opted_out') THEN
    PERFORM pg_advisory_xact_lock(do_not_contact_lock_key(v_lead.account_id, v_lead.phone));
    INSERT INTO suppressions (account_id, phone, reason, lead_id, activity_id)
    VALUES (v_lead.account_id, v_lead.phone, 'opted_out', p_lead_id, v_cause)
    ON CONFLICT (account_id, phone) DO NOTHING;
  END IF;

  IF p_stop THEN
    -- A STOP ends outreach at once, in this same transaction: no step can run
    -- between the reply and the stop (a step's claim waits for the lead's lock).
    IF v_enrollment_status = 'active' THEN
      UPDATE enrollments SET status = 'stopped', next_run_at = NULL, updated_at = now() WHERE id = v_play_id;
    END IF;
    v_n := v_n + 1;
    r_id := p_ids[v_n]; r_type := 'event'; r_label := 'stopped';
    r_occurred_at := activity_insert(r_id, v_lead.account_id, p_lead_id, v_enrollment_id, r_type, r_label,
                                     'Outreach stopped: the lead replied STOP.',
                                     jsonb_build_object('reason', 'opted_out'));
    RETURN NEXT;
    UPDATE leads SET opted_out = true, outcome = coalesce(outcome, 'opted_out'), updated_at = now()
     WHERE id = p_lead_id;
    IF v_lead.outcome IS NULL THEN
      v_n := v_n + 1;
      r_id := p_ids[v_n]; r_type := 'outcome'; r_label := 'opted_out';
      r_occurred_at := activity_insert(r_id, v_lead.account_id, p_lead_id, v_enrollment_id, r_type, r_label,
                                       'The lead replied STOP.', '{}'::jsonb);
      RETURN NEXT;
    END IF;
  END IF;
END;
$$;
