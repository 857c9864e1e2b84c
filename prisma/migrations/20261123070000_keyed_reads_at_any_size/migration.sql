-- Keyed reads of deliveries stay keyed at any table size: three statements of
-- the hot path could be planned as a scan of an index that grows with the table.
--
-- Why: bench/webhooks/size-cost.mjs runs the worker's fan-out and record batches
-- against a database holding an earlier history of deliveries, analyzed. With
-- 600,000 succeeded deliveries of 20,000 earlier leads and the run's own 9,000
-- pending ones, recording cost 0.55 ms of PostgreSQL CPU per delivery, against
-- 0.12 ms on an empty database; auto_explain showed where:
--
-- 1. webhook_record_attempts locked each item's delivery with
--    `WHERE x.id = u.id AND x.status = 'pending' AND ...`. The status makes
--    deliveries_chain_idx (a partial index of the pending rows) usable, and
--    while the statistics say few rows are pending it looks cheaper than the
--    primary key: the plan scanned the whole chain index, filtering on id, once
--    per item (3.6 ms a batch of 16 there). Pending rows are few until a
--    subscriber goes down; then this scan would grow with its backlog, at every
--    attempt of every subscriber. The row is now locked by key and its status and
--    attempt checked after (a stale row locked as well is one of the batch's own
--    chains, whose advisory lock it holds: no new wait).
-- 2. webhook_claimed_steps (20261123020000) joined deliveries to subscriptions
--    on `d.id = ANY (p_ids)`. Planned on a new database (deliveries nearly empty
--    when the statistics were taken), the join started from the subscriptions
--    and read every delivery of each through deliveries_subscription_id_id_idx,
--    keeping the ids asked for: 4.5 ms per fan-out with 10,000 activities, and
--    more with every delivery after. It now starts from the ids: one primary-key
--    probe each (LATERAL ... LIMIT 1, as the record batch reads its items), then
--    the step's other rows by their keys.
-- 3. webhook_release named its row `id = ... AND status = 'pending'`, open to the
--    same plan as 1. It now says "not finished" with the two final states, which
--    no partial index's predicate follows from, so only the primary key serves.
--
-- The functions' answers are unchanged. delivery.sql.test.ts ("the hot path reads
-- deliveries by key ...") plans them on small tables, then grows the pending set
-- unanalyzed, and counts the rows each reads.

CREATE OR REPLACE FUNCTION webhook_claimed_steps(p_ids text[])
RETURNS SETOF webhook_step LANGUAGE sql STABLE AS $$
  SELECT NULL::text, NULL::timestamptz, NULL::boolean, NULL::text,
         'claimed'::text, d.id, d.attempt_count, d.next_attempt_at,
         d.subscription_id, d.lead_id, s.url, s.secret, s.previous_secret,
         s.previous_secret_expires_at,
         a.id, a.activity_type, a.activity_label, a.occurred_at, a.note, a.data,
         a.enrollment_id,
         l.external_id, l.source_name, l.first_name, l.last_name, l.email, l.opted_out,
         l.created_at, l.extra, e.id,
         ms.id, ms.name, pb.id, pb.name
    FROM unnest(p_ids) AS k(id)
    CROSS JOIN LATERAL (SELECT x.* FROM deliveries x WHERE x.id = k.id LIMIT 1) d
    JOIN subscriptions s ON s.id = d.subscription_id
    JOIN activities a ON a.id = d.activity_id
    JOIN leads l ON l.id = d.lead_id
    JOIN marketing_sources ms ON ms.id = l.source_id
    JOIN playbooks pb ON pb.id = l.playbook_id
    LEFT JOIN enrollments e ON e.lead_id = l.id
$$;

CREATE OR REPLACE FUNCTION webhook_release(
  p_delivery_id text, p_attempt integer, p_now timestamptz, p_lease_until timestamptz)
RETURNS boolean LANGUAGE sql VOLATILE AS $$
  WITH released AS (
    UPDATE deliveries SET claimed_until = NULL, updated_at = p_now
     WHERE id = p_delivery_id AND status NOT IN ('succeeded', 'failed')
       AND attempt_count = p_attempt
       AND claimed_until IS NOT NULL AND claimed_until <= p_lease_until
    RETURNING 1)
  SELECT EXISTS (SELECT FROM released);
$$;

-- webhook_record_attempts of 20261123040000_record_batch_successes with step 2
-- changed as said in 1 above; the rest is unchanged, and so is its setting.
CREATE OR REPLACE FUNCTION webhook_record_attempts(
  p_items jsonb, p_now timestamptz, p_disable_after_ms bigint, p_lease_ms integer)
RETURNS TABLE (item integer, step webhook_step) LANGUAGE plpgsql VOLATILE AS $$
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
  -- deliveries; see the note at the end of 20261122220000_webhook_record_batch),
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
  -- LIMIT 1), succeed. Both statements name their rows by key alone, and the
  -- lock's status and attempt are checked on the locked row, outside the
  -- subquery: with the status among its conditions, a plan made while few
  -- deliveries were pending read the whole chain index (deliveries_chain_idx is
  -- the pending rows') for every item (migration 20261123070000).
  SELECT array_agg(y.id) INTO v_live
    FROM unnest(v_ids, v_attempts) AS u(id, attempt)
    CROSS JOIN LATERAL (
      SELECT x.id, x.status, x.attempt_count FROM deliveries x
       WHERE x.id = u.id
       LIMIT 1
         FOR UPDATE) y
   WHERE y.status = 'pending' AND y.attempt_count = u.attempt;
  WITH done AS (
    UPDATE deliveries d
       SET status = 'succeeded',
           attempt_count = d.attempt_count + 1,
           last_attempt_at = v_attempted_at[array_position(v_ids, d.id)],
           next_attempt_at = NULL, claimed_until = NULL, updated_at = p_now
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

-- CREATE OR REPLACE resets a function's settings: index scans only, as before.
ALTER FUNCTION webhook_record_attempts(jsonb, timestamptz, bigint, integer) SET enable_seqscan = off;
