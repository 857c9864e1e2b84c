-- The activity path and the playbook worker's transitions as SQL functions
-- (issue 4, bench/playbook).
--
-- Why: the playbook worker was CPU bound at ~34 ms per lead, ~80 Prisma
-- statements and ~18 commits per lead (bench/RESULTS.md, Playbook worker). Each
-- transition is now one call: enrolling a lead, deferring a step, claiming a step
-- and recording what it did.
--
-- activity_record is THE activity path (packages/activities): the worker's
-- functions below call it, and recordActivityInTx (POST /leads/{id}/activities,
-- the provider's inbound hook and status callbacks) calls it too. What stays in
-- TypeScript is what needs the catalog: the label's check, its default note, and
-- whether a reply is a STOP (p_stop).
--
-- Ids come from the caller (p_ids, used in order): ids are ULIDs made in
-- packages/db (newId), monotonic within a process, so a lead's activities recorded
-- in one call sort by id in the order they were written.

-- One activity row and its outbox row (the webhook worker's doorbell).
CREATE FUNCTION activity_insert(
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

-- Records an activity (docs/api.md, "Activities"), in the caller's transaction:
-- * the lead's row lock (FOR UPDATE) serialises everything recorded on one lead,
--   so the one-outcome check cannot race (activities_one_outcome_per_lead is the
--   database's backstop);
-- * p_account_id, when not null, scopes the lead (the API: another account's lead
--   is not found);
-- * an outcome stops an active play, with a `stopped` event first, and is set on
--   the lead (opted_out also sets opted_out);
-- * p_stop (a message_received whose body is STOP or a synonym): after the reply,
--   the play ends, `stopped` is recorded (even with no play running), the lead is
--   opted out, and the outcome opted_out follows unless the lead already had one.
-- Returns one row per activity recorded ('recorded'), or one row 'lead_not_found'
-- or 'outcome_exists' (with the existing outcome) and no change.
CREATE FUNCTION activity_record(
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
BEGIN
  SELECT l.id, l.account_id, l.outcome INTO v_lead FROM leads l WHERE l.id = p_lead_id FOR UPDATE;
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

-- Enrolls an accepted lead in its playbook in ONE statement: closes the lead's open
-- `enrollment` outbox rows (the consumer closes them once the effect exists), and
-- unless the lead is already enrolled, has an outcome or opted out, creates the
-- enrollment (first step due at p_now + its delay) and records `started`.
-- r_kind: enrolled | already_enrolled | not_enrollable_outcome |
-- not_enrollable_opted_out | lead_not_found. A playbook whose steps are not a list
-- of objects with an integer delay_seconds fails loudly.
CREATE FUNCTION playbook_enroll(
  p_lead_id text, p_enrollment_id text, p_now timestamptz, p_started_note text, p_ids text[])
RETURNS TABLE (r_kind text, r_enrollment_id text, r_first_step_at timestamptz,
               r_id text, r_type text, r_label text, r_occurred_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_lead record;
  v_existing text;
  v_steps jsonb;
  v_count integer;
  v_first_delay integer;
  v_rec record;
BEGIN
  UPDATE outbox SET done_at = now()
   WHERE topic = 'enrollment' AND payload->>'lead_id' = p_lead_id AND done_at IS NULL;
  SELECT l.id, l.playbook_id, l.outcome, l.opted_out INTO v_lead FROM leads l WHERE l.id = p_lead_id FOR UPDATE;
  IF NOT FOUND THEN
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

-- Outside the contact window the step waits for it to open: next_run_at moves to
-- p_until and contact_deferred is recorded, only when it actually moves, so a job
-- delivered twice or a reconciler round records one deferral, not one per look.
-- No row: nothing moved (the play is not at this step, not active, or already
-- waiting for p_until).
CREATE FUNCTION playbook_step_defer(
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
   WHERE id = p_enrollment_id AND current_step = p_step AND status = 'active'
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

-- Claims a step (the caller holds the transaction open, calls the provider, then
-- playbook_step_record): the lead's row lock, then a conditional UPDATE moving the
-- play to its next step, so a second worker running the same step waits for the
-- first and then finds the step taken. FOR NO KEY UPDATE, not FOR UPDATE: it
-- serialises with the activity path (FOR UPDATE, e.g. a STOP reply) yet lets a
-- provider's insert into provider_messages (another connection) take its
-- foreign-key lock. No row: not claimed. r_sms_sent: the play already recorded
-- first_message_sent (the next SMS is message_sent).
CREATE FUNCTION playbook_step_claim(
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
   WHERE id = p_enrollment_id AND current_step = p_step AND status = 'active' AND next_run_at <= p_due_before;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  r_lead_id := v_lead_id;
  r_sms_sent := EXISTS (SELECT 1 FROM activities a
                         WHERE a.enrollment_id = p_enrollment_id AND a.activity_label = 'first_message_sent');
  RETURN NEXT;
END;
$$;

-- Records what a claimed step did (p_items: [{type, label, note, data}], in order,
-- each through activity_record) and, for the last step (p_last not null: {steps,
-- completed_note, unreachable_note}) of a play still active, ends it: status
-- completed, `completed`, then the outcome unreachable unless the lead replied
-- (message_received) or answered a call. Status first: the activity path adds
-- `stopped` before an outcome only for an active play, and this play ended, it
-- was not stopped. Returns a row per activity recorded, in order, then one row
-- with a null r_id whose r_status is the play's status afterwards.
CREATE FUNCTION playbook_step_record(
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
