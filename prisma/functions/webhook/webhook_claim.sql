-- webhook_claim: claims attempt p_attempt of a delivery for p_lease_ms, or says
-- why not. The row decides, not the job.
--
--   Takes:
--     p_delivery_id, p_attempt (the attempt the job is for), p_now, p_lease_ms
--   Returns:
--     one webhook_step; claim = claimed (with the delivery's step, from
--     webhook_claimed_steps) | not_found | terminal | stale (the row moved past
--     this attempt) | not_head | subscription_disabled (its deliveries are failed)
--     | busy (another worker's lease) | not_due
--   Guarantees:
--     - under the delivery's row lock (FOR UPDATE); a job that fires up to 250 ms
--       early (timer granularity) is due
--     - the lease (claimed_until) makes at most one attempt of a delivery in
--       flight at a time; a worker that dies mid-attempt leaves it set, and the
--       reconciler sends the delivery again once it lapses
--     - a chain whose head appeared late is re-pointed (the next head unqueued)
--     - runs with sequential scans off
CREATE OR REPLACE FUNCTION webhook_claim(
  p_delivery_id text, p_attempt integer, p_now timestamptz, p_lease_ms integer)
RETURNS SETOF webhook_step LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
DECLARE
  v_d record;
  v_head text;
  v_step webhook_step;
BEGIN
  SELECT d.status, d.attempt_count, d.next_attempt_at, d.claimed_until, d.subscription_id,
         d.lead_id, s.enabled, s.deleted_at
    INTO v_d
    FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
   WHERE d.id = p_delivery_id
     FOR UPDATE OF d;
  v_step.delivery_id := p_delivery_id;
  IF NOT FOUND THEN
    v_step.claim := 'not_found';
  ELSIF v_d.status <> 'pending' THEN
    v_step.claim := 'terminal';
  ELSIF v_d.attempt_count <> p_attempt THEN
    v_step.claim := 'stale';
  ELSIF NOT v_d.enabled OR v_d.deleted_at IS NOT NULL THEN
    UPDATE deliveries
       SET status = 'failed', next_attempt_at = NULL, queued = false, claimed_until = NULL,
           updated_at = p_now
     WHERE subscription_id = v_d.subscription_id AND status = 'pending';
    v_step.claim := 'subscription_disabled';
  ELSE
    v_head := webhook_chain_head(v_d.subscription_id, v_d.lead_id);
    IF v_head <> p_delivery_id THEN
      -- An older activity's delivery appeared after this one was enqueued: it goes first.
      UPDATE deliveries SET queued = false WHERE id = v_head AND queued;
      UPDATE deliveries SET queued = true WHERE id = p_delivery_id AND NOT queued;
      SELECT 'not_head', id, attempt_count, next_attempt_at
        INTO v_step.claim, v_step.delivery_id, v_step.attempt_count, v_step.due_at
        FROM deliveries WHERE id = v_head;
    ELSIF v_d.claimed_until > p_now THEN
      v_step.claim := 'busy';
      v_step.due_at := v_d.claimed_until;
    ELSIF v_d.next_attempt_at > p_now + interval '250 milliseconds' THEN
      v_step.claim := 'not_due';
      v_step.due_at := v_d.next_attempt_at;
    ELSE
      UPDATE deliveries
         SET claimed_until = p_now + p_lease_ms * interval '1 millisecond', queued = false
       WHERE id = p_delivery_id;
      RETURN QUERY SELECT * FROM webhook_claimed_steps(ARRAY[p_delivery_id]);
      RETURN;
    END IF;
  END IF;
  RETURN NEXT v_step;
END $$;
