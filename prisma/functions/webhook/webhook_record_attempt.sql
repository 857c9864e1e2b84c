-- webhook_record_attempt: records one HTTP try of a delivery and moves the
-- delivery on, in one transaction (docs/webhooks.md, "Retries").
--
--   Takes:
--     p_delivery_id, p_attempt, p_attempt_id, p_attempted_at, p_now, the try's
--     result (p_ok, p_status_code, p_duration_ms, p_error, p_response_body),
--     p_retry_delay_ms (the worker's choice: the schedule's next entry with
--     jitter, at least Retry-After; NULL when the schedule is spent),
--     p_disable_after_ms (the failing period that disables), p_continue (claim
--     the chain's next delivery), p_lease_ms
--   Returns:
--     one webhook_step: outcome succeeded | retry | failed | disabled | stale
--     (the row moved past this attempt), and the chain's next delivery with its
--     claim when one became the head
--   Guarantees:
--     - the chain's advisory lock (webhook_chain_lock), then the delivery's row
--     - the attempt row always (a try that lost a race did reach the subscriber)
--     - success: succeeded, and the subscription's failing_since cleared; a 410:
--       failed and the subscription disabled; another failure: failing_since set
--       if unset (the subscription row is written only then), failing for
--       p_disable_after_ms disables, else a retry after p_retry_delay_ms, or failed
--     - the lease is cleared with the record; a crash before it commits leaves the
--       lease, and the attempt is sent again once it lapses (at least once)
--     - a finished delivery's next one becomes the head; with p_continue, a due,
--       unleased head of a live subscription is claimed here as webhook_claim
--       does (lease from clock_timestamp()), anything else goes through
--       webhook_claim
--     - runs with sequential scans off
CREATE OR REPLACE FUNCTION webhook_record_attempt(
  p_delivery_id text, p_attempt integer, p_attempt_id text, p_attempted_at timestamptz,
  p_now timestamptz, p_ok boolean, p_status_code integer, p_duration_ms integer,
  p_error text, p_response_body text, p_retry_delay_ms bigint, p_disable_after_ms bigint,
  p_continue boolean, p_lease_ms integer)
RETURNS SETOF webhook_step LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
DECLARE
  v_chain record;
  v_d record;
  v_step webhook_step;
  v_claimed webhook_step;
  v_failing timestamptz;
  v_n record;
  v_final text;
BEGIN
  -- Locks in one order everywhere: the chain's lock (webhook_chain_lock), then
  -- the subscription row, then delivery rows (fan-out: the lead's lock, its
  -- chains' locks, subscriptions shared, then rows), so records and fan-outs
  -- wait for each other and never deadlock. The chain lock also means a fan-out
  -- adding to this chain either committed before (its deliveries are seen below)
  -- or runs after this commits (and sees this delivery finished, so it unqueues
  -- the new head itself): a delivery inserted behind this one never stays queued
  -- with no head before it.
  SELECT subscription_id, lead_id INTO v_chain FROM deliveries WHERE id = p_delivery_id;
  IF FOUND THEN
    PERFORM pg_advisory_xact_lock(webhook_chain_lock(v_chain.subscription_id, v_chain.lead_id));
  END IF;
  INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
  VALUES (p_attempt_id, p_delivery_id, p_attempted_at, p_status_code, p_duration_ms, p_error,
          p_response_body);
  -- The subscriber answered (or not) whatever the row says now: its failing_since follows.
  IF p_ok THEN
    UPDATE subscriptions SET failing_since = NULL
     WHERE id = v_chain.subscription_id AND failing_since IS NOT NULL;
  ELSIF p_status_code IS DISTINCT FROM 410 THEN
    -- The row is written (and locked) only when failing starts; a subscriber
    -- failing for a while is only read, so its retries do not queue on its row.
    UPDATE subscriptions SET failing_since = p_attempted_at
     WHERE id = v_chain.subscription_id AND failing_since IS NULL
    RETURNING failing_since INTO v_failing;
    IF NOT FOUND THEN
      SELECT failing_since INTO v_failing FROM subscriptions WHERE id = v_chain.subscription_id;
    END IF;
  END IF;
  SELECT status, attempt_count, subscription_id, lead_id INTO v_d
    FROM deliveries WHERE id = p_delivery_id FOR UPDATE;
  IF NOT FOUND OR v_d.status <> 'pending' OR v_d.attempt_count <> p_attempt THEN
    v_step.outcome := 'stale';
    RETURN NEXT v_step;
    RETURN;
  END IF;

  IF p_ok THEN
    v_final := 'succeeded';
  ELSIF p_status_code = 410 THEN
    v_final := 'failed';
    v_step.outcome := 'disabled';
    v_step.disabled_reason := 'gone';
  ELSIF p_now - v_failing >= p_disable_after_ms * interval '1 millisecond' THEN
    v_final := 'failed';
    v_step.outcome := 'disabled';
    v_step.disabled_reason := 'failing';
  ELSIF p_retry_delay_ms IS NULL THEN
    v_final := 'failed';
  ELSE
    v_step.outcome := 'retry';
    v_step.retry_at := p_now + p_retry_delay_ms * interval '1 millisecond';
    UPDATE deliveries
       SET attempt_count = p_attempt + 1, last_attempt_at = p_attempted_at,
           next_attempt_at = v_step.retry_at, claimed_until = NULL, updated_at = p_now
     WHERE id = p_delivery_id;
    RETURN NEXT v_step;
    RETURN;
  END IF;

  UPDATE deliveries
     SET status = v_final, attempt_count = p_attempt + 1, last_attempt_at = p_attempted_at,
         next_attempt_at = NULL, claimed_until = NULL, queued = false, updated_at = p_now
   WHERE id = p_delivery_id;
  IF v_step.outcome = 'disabled' THEN
    v_step.disabled_now := webhook_disable(
      v_d.subscription_id,
      v_step.disabled_reason,
      CASE v_step.disabled_reason
        WHEN 'gone' THEN 'The endpoint answered 410 Gone.'
        ELSE 'Every delivery failed for 5 days (since '
             || to_char(v_failing AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ').'
      END,
      p_now);
    RETURN NEXT v_step;
    RETURN;
  END IF;

  v_step.outcome := v_final;
  -- The chain's next delivery, its new head (the first entry of
  -- deliveries_chain_idx), locked, with whether its subscription still sends.
  SELECT d.id, d.attempt_count, d.next_attempt_at, d.claimed_until, d.queued,
         s.enabled AND s.deleted_at IS NULL AS live
    INTO v_n
    FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
   WHERE d.subscription_id = v_d.subscription_id AND d.lead_id = v_d.lead_id
     AND d.status = 'pending'
   ORDER BY d.activity_occurred_at, d.activity_id
   LIMIT 1
     FOR UPDATE OF d;
  IF NOT FOUND THEN
    RETURN NEXT v_step;
    RETURN;
  END IF;
  IF p_continue AND v_n.live
     AND (v_n.claimed_until IS NULL OR v_n.claimed_until <= p_now)
     AND (v_n.next_attempt_at IS NULL OR v_n.next_attempt_at <= p_now + interval '250 milliseconds') THEN
    -- webhook_claim's claim of a due head, inline: the common case.
    -- The lease runs from now, not from p_now (taken by the worker before it waited
    -- for a connection and the chains' locks), as webhook_fan_out_claim's does.
    UPDATE deliveries
       SET claimed_until = clock_timestamp() + p_lease_ms * interval '1 millisecond',
           queued = false
     WHERE id = v_n.id;
    -- Its step, with the outcome of the attempt just recorded.
    FOR v_claimed IN SELECT * FROM webhook_claimed_steps(ARRAY[v_n.id]) LOOP
      v_claimed.outcome := v_final;
      RETURN NEXT v_claimed;
    END LOOP;
    RETURN;
  END IF;
  IF p_continue THEN
    -- Not due yet, leased by another worker, or its subscription is disabled:
    -- webhook_claim says which (and fails a disabled subscription's deliveries).
    SELECT * INTO v_claimed
      FROM webhook_claim(v_n.id, v_n.attempt_count, clock_timestamp(), p_lease_ms);
    v_claimed.outcome := v_step.outcome;
    UPDATE deliveries SET queued = false WHERE id = v_n.id AND queued;
    RETURN NEXT v_claimed;
    RETURN;
  END IF;
  IF v_n.queued THEN
    UPDATE deliveries SET queued = false WHERE id = v_n.id;
  END IF;
  v_step.claim := 'unclaimed';
  v_step.delivery_id := v_n.id;
  v_step.attempt_count := v_n.attempt_count;
  v_step.due_at := v_n.next_attempt_at;
  RETURN NEXT v_step;
END $$;
