-- A step's claim and deferral update their play by key at any table size: both
-- named it `id = ... AND status = 'active' AND ...`, which
-- enrollments_status_next_run_at_idx (status, next_run_at) serves too.
--
-- Why: with statistics taken while (almost) no play is active (a long history of
-- completed plays, a quiet moment), `status = 'active'` is estimated at a row or
-- so, and that index looks cheaper than the primary key. With 20,000 completed
-- plays analyzed and 20,000 active ones added since, EXPLAIN of both UPDATEs
-- chose it (cost 6.08 against 8.33 for enrollments_pkey), custom and generic
-- plans alike (plpgsql keeps a generic plan after five calls in a session):
--
-- * playbook_step_claim: Index Cond (status = 'active' AND next_run_at <= due),
--   Filter (id = ...): every claim read the whole due backlog;
-- * playbook_step_defer: Index Cond (status = 'active'), Filter (id = ...):
--   every deferral read every active play.
--
-- An enrollment burst (the plays the statistics have not seen) made each step
-- cost the size of the burst, and the burst quadratic: 3 claims and 3 deferrals
-- plus 6 refused calls read 240,222 rows of enrollments (the test named below).
--
-- Both now say "not finished" with the two final states (enrollments_status_check
-- allows only active, completed and stopped, and status is NOT NULL, so this is
-- the same set of rows): a btree cannot search for `<> ALL`, so the index offers
-- only a scan of all of it and the primary key serves (cost 8.33; the generic
-- plans and those made on an empty table too), as webhook_release in
-- 20261123070000. The same calls read 66 rows, none through that index.
--
-- The functions are those of 20261122201000_activity_path_functions (no later
-- migration redefines them) with only that condition changed, and no settings;
-- their answers are unchanged. step.sql.test.ts (playbook worker) plans them on
-- 20,000 analyzed completed plays, adds 20,000 active ones unanalyzed, and counts
-- the rows the calls read.

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

CREATE OR REPLACE FUNCTION playbook_step_claim(
  p_enrollment_id text, p_step integer, p_next_at timestamptz, p_due_before timestamptz)
RETURNS TABLE (r_lead_id text, r_sms_sent boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_lead_id text;
BEGIN
  SELECT l.id INTO v_lead_id
    FROM enrollments e JOIN leads l ON l.id = e.lead_id
   WHERE e.id = p_enrollment_id
     FOR NO KEY UPDATE OF l;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE enrollments SET current_step = current_step + 1, next_run_at = p_next_at, updated_at = now()
   WHERE id = p_enrollment_id AND current_step = p_step AND status NOT IN ('completed', 'stopped')
     AND next_run_at <= p_due_before;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  r_lead_id := v_lead_id;
  r_sms_sent := EXISTS (SELECT 1 FROM activities a
                         WHERE a.enrollment_id = p_enrollment_id AND a.activity_label = 'first_message_sent');
  RETURN NEXT;
END;
$$;
