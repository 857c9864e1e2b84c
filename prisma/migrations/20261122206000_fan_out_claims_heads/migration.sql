-- A fan-out that also claims the chain heads it created, so that the worker that ran
-- it sends them at once, without a delivery job and without a claim of its own.
--
-- Why: in bench/e2e (one delivery per activity) a delivery cost a BullMQ job (add,
-- fetch, finish: three Redis scripts and the worker's job handling) and a second
-- transaction (webhook_claim) after the fan-out's, on top of a queue hop of latency.
-- The worker asks for as many claims as it has free sending slots (p_claim); the
-- heads it gets are leased exactly as webhook_claim leases them (claimed_until),
-- so a worker killed before recording them leaves them to the reconciler once the
-- lease lapses, as with any claimed delivery. The heads it could not take (no
-- free slot, not due yet, or not claimable) are returned in `heads` as before, to
-- be enqueued.
--
-- Returns webhook_fan_out's object, with `heads` holding the heads not claimed and
-- `claimed` the claimed ones as webhook_step objects (what webhook_claim returns).
CREATE FUNCTION webhook_fan_out_claim(
  p_activity_id text, p_now timestamptz, p_first_delay_ms integer, p_claim integer,
  p_lease_ms integer)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_out jsonb;
  v_head jsonb;
  v_rest jsonb := '[]';
  v_claimed jsonb := '[]';
  v_step webhook_step;
  v_taken integer := 0;
  v_due_by bigint := floor(extract(epoch FROM p_now) * 1000) + 250;
BEGIN
  v_out := webhook_fan_out(p_activity_id, p_now, p_first_delay_ms);
  IF p_claim <= 0 OR v_out->>'result' <> 'fanned_out' THEN
    RETURN v_out;
  END IF;
  FOR v_head IN SELECT value FROM jsonb_array_elements(v_out->'heads') LOOP
    -- Only heads this fan-out created (their rows are new and locked by this
    -- transaction already) and due now (webhook_claim's 250 ms tolerance).
    IF v_taken < p_claim AND (v_head->>'created')::boolean
       AND (v_head->>'due_ms')::bigint <= v_due_by THEN
      -- The lease runs from now, not from p_now: the worker took p_now before it
      -- waited for a connection and for the lead's and chains' locks.
      SELECT * INTO v_step
        FROM webhook_claim(v_head->>'id', (v_head->>'attempt_count')::integer,
                           clock_timestamp(), p_lease_ms);
      IF v_step.claim = 'claimed' THEN
        v_claimed := v_claimed || jsonb_build_array(to_jsonb(v_step));
        v_taken := v_taken + 1;
        CONTINUE;
      END IF;
    END IF;
    v_rest := v_rest || jsonb_build_array(v_head);
  END LOOP;
  RETURN v_out || jsonb_build_object('heads', v_rest, 'claimed', v_claimed);
END $$;
