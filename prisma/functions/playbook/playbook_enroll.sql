-- playbook_enroll: enrolls an accepted lead in its playbook in one statement.
--
--   Takes:
--     p_lead_id, p_enrollment_id (the new play's id), p_now, p_started_note (the
--     `started` event's note), p_ids (activity ids, used in order)
--   Returns:
--     r_kind: enrolled | already_enrolled | not_enrollable_outcome |
--     not_enrollable_opted_out | do_not_contact | lead_not_found, with the play's
--     id and first step time, and a row per activity recorded
--     (do_not_contact: the lead's phone is on its account's do-not-contact list;
--     it is not enrolled, and its outcome do_not_contact is recorded, using
--     p_ids, with the catalog's meaning as its note)
--   Guarantees:
--     - the lead's row lock (FOR UPDATE) first, as every writer of a lead's play
--     - closes the lead's open `enrollment` outbox rows in the same transaction as
--       the effect, so a crash leaves them open and the relay asks again;
--       enrolling twice creates nothing new (a lead not found has its rows
--       closed too)
--     - the outbox is partitioned by day of created_at (docs/operations.md,
--       "Outbox partitions"): a lead's enrollment row is written in the
--       transaction that inserts the lead (intake_accept*), both created_at
--       that transaction's now(), and its enrollment is asked for once that
--       transaction committed, so before this statement arrived; the rows are
--       looked for from the lead's created_at to statement_timestamp(), and
--       PostgreSQL prunes the other days when the plan starts (a fresh lead's:
--       every day but today's); should the server's clock step back, a row of
--       the last moments is missed once, and its relay asks again
--     - a playbook whose steps are not a list of objects with an integer
--       delay_seconds fails loudly
CREATE OR REPLACE FUNCTION playbook_enroll(
  p_lead_id text, p_enrollment_id text, p_now timestamptz, p_started_note text, p_ids text[])
RETURNS TABLE (r_kind text, r_enrollment_id text, r_first_step_at timestamptz,
               r_id text, r_type text, r_label text, r_occurred_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_lead record;
  v_found boolean;
  v_existing text;
  v_steps jsonb;
  v_count integer;
  v_first_delay integer;
  v_rec record;
BEGIN
  SELECT l.id, l.account_id, l.phone, l.playbook_id, l.outcome, l.opted_out, l.created_at INTO v_lead
    FROM leads l WHERE l.id = p_lead_id FOR UPDATE;
  v_found := FOUND;
  UPDATE outbox SET done_at = now()
   WHERE topic = 'enrollment' AND payload->>'lead_id' = p_lead_id AND done_at IS NULL
     AND created_at >= CASE WHEN v_found THEN v_lead.created_at ELSE '-infinity' END
     AND created_at <= statement_timestamp();
  IF NOT v_found THEN
    r_kind := 'lead_not_found';
    RETURN NEXT;
    RETURN;
  END IF;
  SELECT e.id INTO v_existing FROM enrollments e WHERE e.lead_id = p_lead_id;
  IF FOUND THEN
    r_kind := 'already_enrolled';
    r_enrollment_id := v_existing;
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_lead.outcome IS NOT NULL THEN
    r_kind := 'not_enrollable_outcome';
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_lead.opted_out THEN
    r_kind := 'not_enrollable_opted_out';
    RETURN NEXT;
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = v_lead.account_id AND s.phone = v_lead.phone) THEN
    -- Accepted at intake, never contacted: it ends with its outcome.
    FOR v_rec IN
      SELECT * FROM activity_record(p_lead_id, NULL, 'outcome', 'do_not_contact',
                                    'The phone is on the account''s do-not-contact list; the lead was not contacted.',
                                    '{}'::jsonb, NULL, false, p_ids)
    LOOP
      IF v_rec.r_kind <> 'recorded' THEN
        RAISE EXCEPTION 'do_not_contact not recorded for lead %: %', p_lead_id, v_rec.r_kind;
      END IF;
      r_kind := 'do_not_contact';
      r_id := v_rec.r_id; r_type := v_rec.r_type; r_label := v_rec.r_label; r_occurred_at := v_rec.r_occurred_at;
      RETURN NEXT;
    END LOOP;
    RETURN;
  END IF;

  SELECT p.steps INTO v_steps FROM playbooks p WHERE p.id = v_lead.playbook_id;
  IF jsonb_typeof(v_steps) IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION 'playbook % steps are not a list', v_lead.playbook_id;
  END IF;
  v_count := jsonb_array_length(v_steps);
  IF v_count > 0 THEN
    IF jsonb_typeof(v_steps->0->'delay_seconds') IS DISTINCT FROM 'number' THEN
      RAISE EXCEPTION 'playbook % step 0 has no valid delay_seconds', v_lead.playbook_id;
    END IF;
    v_first_delay := (v_steps->0->>'delay_seconds')::integer;
    IF v_first_delay < 0 THEN
      RAISE EXCEPTION 'playbook % step 0 has no valid delay_seconds', v_lead.playbook_id;
    END IF;
    -- Enrollment starts the steps at once: the first is due after its own delay.
    r_first_step_at := p_now + make_interval(secs => v_first_delay);
  END IF;
  INSERT INTO enrollments (id, lead_id, playbook_id, status, current_step, next_run_at)
  VALUES (p_enrollment_id, p_lead_id, v_lead.playbook_id, 'active', 0, r_first_step_at);

  r_kind := 'enrolled';
  r_enrollment_id := p_enrollment_id;
  FOR v_rec IN
    SELECT * FROM activity_record(p_lead_id, NULL, 'event', 'started', p_started_note,
                                  jsonb_build_object('steps', v_count), p_enrollment_id, false, p_ids)
  LOOP
    IF v_rec.r_kind <> 'recorded' THEN
      RAISE EXCEPTION 'started not recorded for lead %: %', p_lead_id, v_rec.r_kind;
    END IF;
    r_id := v_rec.r_id; r_type := v_rec.r_type; r_label := v_rec.r_label; r_occurred_at := v_rec.r_occurred_at;
    RETURN NEXT;
  END LOOP;
END;
$$;
