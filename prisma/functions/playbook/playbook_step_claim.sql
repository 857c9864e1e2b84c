-- playbook_step_claim: claims step p_step of a play for the worker that runs it.
--
--   Takes:
--     p_enrollment_id, p_step (the step the job is for), p_next_at (when the next
--     step is due), p_due_before (a play due later is not claimed)
--   Returns:
--     one row (r_lead_id, r_sms_sent: the play already sent its first message,
--     r_do_not_contact: the lead's phone is on its account's do-not-contact list,
--     so the step is not taken and must not run), or no row: the play is gone,
--     finished, past this step or not due
--   Guarantees:
--     - the lead's row lock (FOR NO KEY UPDATE) first, as every writer of a play
--     - the claim is made in the transaction that records the step's activities
--       (services/playbook-worker step.job.ts): a second worker holding the same
--       job waits for the lock and then finds the step taken; a crash rolls the
--       claim back and the step runs again (the provider call carries an
--       idempotency key)
--     - the do-not-contact check is one lookup of suppressions by its key, under
--       the phone's shared advisory lock: a STOP of another lead with this phone
--       (activity_record, exclusive) that commits first is seen here; one that
--       comes later waits for this transaction, the step's send included
--     - the play is updated by its key at any table size: "not finished" is said
--       as NOT IN ('completed', 'stopped'), which no index on status serves
CREATE OR REPLACE FUNCTION playbook_step_claim(
  p_enrollment_id text, p_step integer, p_next_at timestamptz, p_due_before timestamptz)
RETURNS TABLE (r_lead_id text, r_sms_sent boolean, r_do_not_contact boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_lead record;
BEGIN
  SELECT l.id, l.account_id, l.phone INTO v_lead
    FROM enrollments e JOIN leads l ON l.id = e.lead_id
   WHERE e.id = p_enrollment_id
     FOR NO KEY UPDATE OF l;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(do_not_contact_lock_key(v_lead.account_id, v_lead.phone));
  IF EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = v_lead.account_id AND s.phone = v_lead.phone) THEN
    -- Suppressed: the step is not taken; the caller records do_not_contact,
    -- which stops the play. Only for a play at this step and due, as a claim.
    PERFORM 1 FROM enrollments
      WHERE id = p_enrollment_id AND current_step = p_step AND status NOT IN ('completed', 'stopped')
        AND next_run_at <= p_due_before;
    IF NOT FOUND THEN
      RETURN;
    END IF;
    r_lead_id := v_lead.id;
    r_sms_sent := false;
    r_do_not_contact := true;
    RETURN NEXT;
    RETURN;
  END IF;
  UPDATE enrollments SET current_step = current_step + 1, next_run_at = p_next_at, updated_at = now()
   WHERE id = p_enrollment_id AND current_step = p_step AND status NOT IN ('completed', 'stopped')
     AND next_run_at <= p_due_before;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  r_lead_id := v_lead.id;
  r_do_not_contact := false;
  r_sms_sent := EXISTS (SELECT 1 FROM activities a
                         WHERE a.enrollment_id = p_enrollment_id AND a.activity_label = 'first_message_sent');
  RETURN NEXT;
END;
$$;
