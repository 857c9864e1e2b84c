-- webhook_record_attempts: many delivery attempts recorded in one transaction
-- (services/webhook-worker batches the attempts that finish while a record runs).
--
--   Takes:
--     p_items  a JSON array of {delivery_id, attempt, attempt_id, attempted_at, ok,
--              status_code, duration_ms, error, response_body, retry_delay_ms,
--              continue}: webhook_record_attempt's arguments
--     p_now, p_disable_after_ms, p_lease_ms
--   Returns:
--     one row per item: its position in p_items (from 1) and the webhook_step
--     webhook_record_attempt would return for it
--   Guarantees:
--     - every item's chain lock first, in (lead, subscription) order, before any
--       row lock: the global order fan-outs use too; items are then recorded in
--       subscription order, so subscription rows are written in id order, the
--       order in which fan-outs share-lock them. Row-lock cycles with other writers
--       remain possible: PostgreSQL detects them and the worker retries the batch,
--       then item by item
--     - a batch of successes only (one per chain, every subscription live and not
--       failing) is recorded with one statement per step for the whole batch and
--       writes no subscription row; anything else goes item by item through
--       webhook_record_attempt, where the rules live
--     - rows are found by key at any table size
--   Settings:
--     sequential scans off, in this function and the ones it calls: generic
--     plans are made while a session is new, maybe on nearly empty tables, and
--     kept until the next analyze. A plain join of the items with deliveries was
--     planned then as a hash join over a sequential scan, and with sequential
--     scans off as a merge join over a full scan of the primary key
--     (bench/webhooks read 22 M index entries of deliveries for 30,000
--     deliveries): the lookups are LATERAL with LIMIT 1, which keeps them key
--     probes at any size, and this keeps the statements they call off scans
CREATE OR REPLACE FUNCTION webhook_record_attempts(
  p_items jsonb, p_now timestamptz, p_disable_after_ms bigint, p_lease_ms integer)
RETURNS TABLE (item integer, step webhook_step) LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
DECLARE
  v_item record;
  v_all_successes boolean;
  v_item_subs text[];
  v_item_leads text[];
  v_ids text[];
  v_attempts integer[];
  v_attempted_at timestamptz[];
  v_done record;
  v_next record;
  v_step webhook_step;
  v_live text[];
  v_done_ids text[];
  v_done_subs text[];
  v_done_leads text[];
  v_claim_items integer[] := '{}';
  v_claim_ids text[] := '{}';
BEGIN
  -- Each item's delivery is read by its key (LATERAL ... LIMIT 1: a nested loop
  -- of primary-key probes, never a join the planner could turn into a scan of
  -- deliveries; see "sequential scans off" in the header above),
  -- for its chain, and whether the batch is all successes of distinct chains.
  SELECT bool_and(coalesce(x.ok, false) AND coalesce(d.sends, false))
           AND count(DISTINCT (d.subscription_id, d.lead_id)) = count(*),
         array_agg(x.delivery_id ORDER BY i.n),
         array_agg(x.attempt ORDER BY i.n),
         array_agg(x.attempted_at ORDER BY i.n),
         array_agg(d.subscription_id ORDER BY i.n),
         array_agg(d.lead_id ORDER BY i.n)
    INTO v_all_successes, v_ids, v_attempts, v_attempted_at, v_item_subs, v_item_leads
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i(v, n)
    CROSS JOIN LATERAL jsonb_to_record(i.v) AS x(
      delivery_id text, attempt integer, attempted_at timestamptz, ok boolean)
    LEFT JOIN LATERAL (
      SELECT y.subscription_id, y.lead_id,
             s.enabled AND s.deleted_at IS NULL AND s.failing_since IS NULL AS sends
        FROM deliveries y JOIN subscriptions s ON s.id = y.subscription_id
       WHERE y.id = x.delivery_id LIMIT 1) d ON true;

  -- Every chain's lock first, in (lead, subscription) order.
  PERFORM pg_advisory_xact_lock(webhook_chain_lock(c.subscription_id, c.lead_id))
     FROM (SELECT DISTINCT u.subscription_id, u.lead_id
             FROM unnest(v_item_subs, v_item_leads) AS u(subscription_id, lead_id)
            WHERE u.subscription_id IS NOT NULL
            ORDER BY u.lead_id, u.subscription_id) c;

  IF NOT coalesce(v_all_successes, false) THEN
    -- Item by item, in subscription order (so subscription rows are written in
    -- id order), each exactly as webhook_record_attempt records it alone.
    FOR v_item IN
      SELECT i.n::integer AS n, x.*
        FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i(v, n)
        CROSS JOIN LATERAL jsonb_to_record(i.v) AS x(
          delivery_id text, attempt integer, attempt_id text, attempted_at timestamptz,
          ok boolean, status_code integer, duration_ms integer, error text,
          response_body text, retry_delay_ms bigint, continue boolean)
       ORDER BY v_item_subs[i.n::integer], i.n
    LOOP
      item := v_item.n;
      SELECT * INTO step
        FROM webhook_record_attempt(
          v_item.delivery_id, v_item.attempt, v_item.attempt_id, v_item.attempted_at, p_now,
          v_item.ok, v_item.status_code, v_item.duration_ms, v_item.error, v_item.response_body,
          v_item.retry_delay_ms, p_disable_after_ms, v_item.continue, p_lease_ms);
      RETURN NEXT;
    END LOOP;
    RETURN;
  END IF;

  -- 1. Every try is an attempt row, whatever its delivery's state now.
  INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms, error,
                        response_body)
  SELECT x.attempt_id, x.delivery_id, x.attempted_at, x.status_code, x.duration_ms, x.error,
         x.response_body
    FROM jsonb_to_recordset(p_items) AS x(
      attempt_id text, delivery_id text, attempted_at timestamptz, status_code integer,
      duration_ms integer, error text, response_body text);

  -- 2. The deliveries still pending at this attempt, locked (by key: LATERAL ...
  -- LIMIT 1), succeed. "Pending" is said as "neither final state": written
  -- `status = 'pending'`, it let a plan made while few deliveries were pending
  -- read the whole chain index (deliveries_chain_idx is the pending rows') for
  -- every item (bench/webhooks/size-cost.mjs). The update names its rows by key
  -- alone.
  SELECT array_agg(y.id) INTO v_live
    FROM unnest(v_ids, v_attempts) AS u(id, attempt)
    CROSS JOIN LATERAL (
      SELECT x.id FROM deliveries x
       WHERE x.id = u.id AND x.status NOT IN ('succeeded', 'failed')
         AND x.attempt_count = u.attempt
       LIMIT 1
         FOR UPDATE) y;
  WITH done AS (
    UPDATE deliveries d
       SET status = 'succeeded',
           attempt_count = d.attempt_count + 1,
           last_attempt_at = v_attempted_at[array_position(v_ids, d.id)],
           next_attempt_at = NULL, claimed_until = NULL, queued = false, updated_at = p_now
     WHERE d.id = ANY (v_live)
    RETURNING d.id, d.subscription_id, d.lead_id)
  SELECT array_agg(id), array_agg(subscription_id), array_agg(lead_id)
    INTO v_done_ids, v_done_subs, v_done_leads
    FROM done;

  -- 3. Each finished chain's next pending delivery (the first entry of
  -- deliveries_chain_idx), locked, with whether its subscription still sends. (A
  -- statement of its own: a statement does not see its own updates, so within the
  -- UPDATE above the finished deliveries would still look pending.)
  FOR v_done IN
    SELECT i.n::integer AS n, (i.v->>'continue')::boolean AS go_on, f.id AS done_id,
           nx.id, nx.attempt_count, nx.next_attempt_at, nx.claimed_until, nx.queued, nx.live
      FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i(v, n)
      LEFT JOIN unnest(v_done_ids, v_done_subs, v_done_leads) AS f(id, subscription_id, lead_id)
        ON f.id = i.v->>'delivery_id'
      LEFT JOIN LATERAL (
        SELECT d.id, d.attempt_count, d.next_attempt_at, d.claimed_until, d.queued,
               s.enabled AND s.deleted_at IS NULL AS live
          FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
         WHERE d.subscription_id = f.subscription_id AND d.lead_id = f.lead_id
           AND d.status = 'pending'
         ORDER BY d.activity_occurred_at, d.activity_id
         LIMIT 1
           FOR UPDATE OF d) nx ON f.id IS NOT NULL
     ORDER BY f.subscription_id, f.lead_id, i.n
  LOOP
    item := v_done.n;
    v_step := NULL;
    IF v_done.done_id IS NULL THEN
      v_step.outcome := 'stale';
    ELSE
      v_step.outcome := 'succeeded';
      IF v_done.id IS NULL THEN
        NULL; -- the chain is done: the outcome alone
      ELSIF v_done.go_on AND v_done.live
            AND (v_done.claimed_until IS NULL OR v_done.claimed_until <= p_now)
            AND (v_done.next_attempt_at IS NULL
                 OR v_done.next_attempt_at <= p_now + interval '250 milliseconds') THEN
        -- 4. Claimed below, all at once.
        v_claim_items := v_claim_items || v_done.n;
        v_claim_ids := v_claim_ids || v_done.id;
        CONTINUE;
      ELSIF v_done.go_on THEN
        -- Not due yet, leased by another worker, or its subscription is disabled:
        -- webhook_claim says which (and fails a disabled subscription's deliveries).
        SELECT * INTO v_step
          FROM webhook_claim(v_done.id, v_done.attempt_count, clock_timestamp(), p_lease_ms);
        v_step.outcome := 'succeeded';
        UPDATE deliveries SET queued = false WHERE id = v_done.id AND queued;
      ELSE
        IF v_done.queued THEN
          UPDATE deliveries SET queued = false WHERE id = v_done.id;
        END IF;
        v_step.claim := 'unclaimed';
        v_step.delivery_id := v_done.id;
        v_step.attempt_count := v_done.attempt_count;
        v_step.due_at := v_done.next_attempt_at;
      END IF;
    END IF;
    step := v_step;
    RETURN NEXT;
  END LOOP;

  -- 4. The due heads, claimed as webhook_claim claims them (the lease runs from
  -- now, not from p_now: the worker took p_now before it waited for a connection
  -- and for the chains' locks), each returned with its step.
  IF cardinality(v_claim_ids) > 0 THEN
    UPDATE deliveries
       SET claimed_until = clock_timestamp() + p_lease_ms * interval '1 millisecond',
           queued = false
     WHERE id = ANY (v_claim_ids);
    FOR v_next IN
      SELECT c.n, st
        FROM unnest(v_claim_items, v_claim_ids) AS c(n, id)
        JOIN webhook_claimed_steps(v_claim_ids) st ON st.delivery_id = c.id
    LOOP
      item := v_next.n;
      step := v_next.st;
      step.outcome := 'succeeded';
      RETURN NEXT;
    END LOOP;
  END IF;
END $$;
