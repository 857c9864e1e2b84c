-- Keyed reads of deliveries stay keyed at any table size: four statements of
-- the hot path could be planned as a scan of an index that grows with the table.
--
-- Why: bench/webhooks/size-cost.mjs runs the worker's fan-out and record batches
-- against a database holding an earlier history of deliveries, analyzed. With
-- 600,000 succeeded deliveries of 20,000 earlier leads and the run's own 9,000
-- pending ones, recording cost 0.55 ms of PostgreSQL CPU per delivery, against
-- 0.12 ms on an empty database; auto_explain showed where (1-3; 4 was found by
-- a test written for them):
--
-- 1. webhook_record_attempts locked each item's delivery with
--    `WHERE x.id = u.id AND x.status = 'pending' AND ...`. The status makes
--    deliveries_chain_idx (a partial index of the pending rows) usable, and
--    while the statistics say few rows are pending it looks cheaper than the
--    primary key: the plan scanned the whole chain index, filtering on id, once
--    per item (3.6 ms a batch of 16 there). Pending rows are few until a
--    subscriber goes down; then this scan would grow with its backlog, at every
--    attempt of every subscriber. The statement now says "pending" as "neither
--    of the final states" (deliveries_status_check allows three, and status is
--    NOT NULL: the same rows, locked as before), which no partial index's
--    predicate follows from, so only the primary key serves.
-- 2. webhook_claimed_steps (20261123020000) joined deliveries to subscriptions
--    on `d.id = ANY (p_ids)`. Planned on a new database (deliveries nearly empty
--    when the statistics were taken), the join started from the subscriptions
--    and read every delivery of each through deliveries_subscription_id_id_idx,
--    keeping the ids asked for: 4.5 ms per fan-out with 10,000 activities, and
--    more with every delivery after. It now starts from the ids: one primary-key
--    probe each (LATERAL ... LIMIT 1, as the record batch reads its items), then
--    the step's other rows by their keys.
-- 3. webhook_release named its row `id = ... AND status = 'pending'`, open to the
--    same plan as 1, and now says it the same way as 1.
-- 4. webhook_fan_out skipped the (activity, subscription) pairs that have their
--    delivery with `NOT EXISTS (... x.activity_id = a.id AND x.subscription_id =
--    s.id)`. The planner may run that as an anti join, and its generic plan
--    (the function forces generic plans) estimates ten activities for
--    `a.id = ANY ($n)`: with 40,000 deliveries analyzed it chose a merge anti
--    join reading the whole deliveries_activity_id_subscription_id_key in order,
--    ~50,000 rows a fan-out (found by the second test below). A probe per pair
--    (LATERAL ... LIMIT 1) was no answer: planned on an empty table it went
--    through deliveries_subscription_id_id_idx, every delivery of the
--    subscription per pair (size-cost.mjs --history 0: 0.95 ms per activity).
--    Now the open activities' existing deliveries are read first, in a
--    materialized CTE, by `activity_id = ANY (v_open)` alone: only
--    deliveries_activity_id_subscription_id_key has activity_id as an index
--    condition (the chain index holds it too, but is partial), so no other plan
--    can read deliveries there, at any size or statistics; the pairs are then
--    checked against those few rows.
--
-- The functions' answers are unchanged. Two tests in delivery.sql.test.ts ("the
-- hot path reads deliveries by key ...") have a session plan them, one on a new
-- database, the other on many analyzed deliveries of which few are pending; then
-- grow the table unanalyzed (delivered rows, or a subscriber's pending backlog)
-- and count the rows the same calls read.

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

-- webhook_fan_out of 20261123020000_fan_out_claims_at_insert with 4 above (the
-- CTE `existing`); the rest is unchanged, and so are its settings (set again at
-- its end).
CREATE OR REPLACE FUNCTION webhook_fan_out(
  p_activity_id text, p_now timestamptz, p_first_delay_ms integer, p_claim integer DEFAULT 0,
  p_lease_ms integer DEFAULT 0)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_act record;
  v_open text[];
  v_outbox bigint[];
  v_created integer;
  v_heads jsonb;
  v_repair text[];
  v_repaired jsonb;
  v_claim_ids text[];
  v_out jsonb;
BEGIN
  IF p_claim > 0 AND coalesce(p_lease_ms, 0) <= 0 THEN
    -- A claim without a lease would be open to every other sender at once.
    RAISE EXCEPTION 'webhook_fan_out: claims need a lease (p_lease_ms > 0), got %', p_lease_ms;
  END IF;
  SELECT a.id, a.account_id, a.lead_id, a.occurred_at, l.playbook_id INTO v_act
    FROM activities a JOIN leads l ON l.id = a.lead_id
   WHERE a.id = p_activity_id;
  IF NOT FOUND THEN
    UPDATE outbox SET done_at = p_now
     WHERE topic = 'activity' AND done_at IS NULL
       AND payload = jsonb_build_object('activity_id', p_activity_id);
    RETURN jsonb_build_object('result', 'activity_not_found');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(v_act.lead_id, 0));

  -- The lead's activities up to this one (index quals lead_id and occurred_at on
  -- activities_lead_id_occurred_at_idx; the row comparison only filters ties),
  -- each with its open outbox row.
  WITH open AS (
    SELECT o.outbox_id, a.id, a.occurred_at
      FROM activities a
      CROSS JOIN LATERAL (
        SELECT b.id AS outbox_id FROM outbox b
         WHERE b.topic = 'activity' AND b.done_at IS NULL
           AND b.payload->>'activity_id' = a.id
           FOR UPDATE) o
     WHERE a.lead_id = v_act.lead_id
       AND a.occurred_at <= v_act.occurred_at
       AND (a.occurred_at, a.id) <= (v_act.occurred_at, v_act.id))
  SELECT array_agg(id ORDER BY occurred_at, id), array_agg(outbox_id) INTO v_open, v_outbox
    FROM open;
  IF v_open IS NULL OR NOT (p_activity_id = ANY (v_open)) THEN
    RETURN jsonb_build_object('result', 'already_done');
  END IF;

  -- The locks of the chains this may add to, in subscription order, then the
  -- selecting subscriptions share-locked until commit (the lock order is said in
  -- webhook_record_attempt; disabling a subscription waits for this fan-out).
  PERFORM pg_advisory_xact_lock(webhook_chain_lock(c.id, v_act.lead_id))
     FROM (SELECT s.id FROM subscriptions s
            WHERE s.account_id = v_act.account_id AND s.enabled AND s.deleted_at IS NULL
              AND (s.playbook_id = v_act.playbook_id OR s.playbook_id IS NULL)
            ORDER BY s.id) c;
  PERFORM 1 FROM subscriptions s
   WHERE s.account_id = v_act.account_id AND s.enabled AND s.deleted_at IS NULL
     AND (s.playbook_id = v_act.playbook_id OR s.playbook_id IS NULL)
   ORDER BY s.id
     FOR SHARE;

  -- Each new delivery with its chain's current head (the oldest pending delivery,
  -- an index probe of deliveries_chain_idx): queued when the head is older, or
  -- when the same statement inserts an older one of its chain first. Up to
  -- p_claim of the new heads that are due (webhook_claim's 250 ms tolerance) are
  -- inserted claimed, with webhook_claim's lease, running from now (the worker
  -- took p_now before it waited for a connection and for the locks): each is its
  -- chain's head (not queued), its subscription is live (share-locked above) and
  -- nobody else has seen the row.
  WITH existing AS MATERIALIZED (
    -- The deliveries the open activities already have (see the header: by the
    -- unique key's leading column, the one index that can serve it).
    SELECT d.activity_id, d.subscription_id FROM deliveries d
     WHERE d.activity_id = ANY (v_open)),
  wanted AS (
    SELECT a.id AS activity_id, a.occurred_at, s.id AS subscription_id,
           row_number() OVER (PARTITION BY s.id ORDER BY a.occurred_at, a.id) AS rank,
           h.id AS head_id, h.queued AS head_queued,
           (h.activity_occurred_at, h.activity_id) < (a.occurred_at, a.id) AS behind_head
      FROM activities a
      JOIN subscriptions s
        ON s.account_id = v_act.account_id AND s.enabled AND s.deleted_at IS NULL
       AND (s.playbook_id = v_act.playbook_id OR s.playbook_id IS NULL)
      LEFT JOIN LATERAL (
        SELECT p.id, p.queued, p.activity_occurred_at, p.activity_id
          FROM deliveries p
         WHERE p.subscription_id = s.id AND p.lead_id = v_act.lead_id AND p.status = 'pending'
         ORDER BY p.activity_occurred_at, p.activity_id
         LIMIT 1) h ON true
     WHERE a.id = ANY (v_open)
       AND (CASE WHEN a.activity_type = 'outcome' THEN s.outcomes ELSE s.events END)
           && ARRAY['*', a.activity_label]
       AND NOT EXISTS (SELECT 1 FROM existing x
                        WHERE x.activity_id = a.id AND x.subscription_id = s.id)),
  placed AS (
    SELECT w.*, w.rank > 1 OR coalesce(w.behind_head, false) AS queued FROM wanted w),
  chosen AS (
    SELECT p.*,
           NOT p.queued AND p_first_delay_ms <= 250
             AND row_number() OVER (PARTITION BY p.queued
                                    ORDER BY p.occurred_at, p.activity_id, p.subscription_id)
                 <= p_claim AS claim
      FROM placed p),
  inserted AS (
    INSERT INTO deliveries (id, activity_id, subscription_id, lead_id,
                            activity_occurred_at, next_attempt_at, queued, claimed_until)
    SELECT leadhook_new_id('dlv'), c.activity_id, c.subscription_id, v_act.lead_id, c.occurred_at,
           p_now + p_first_delay_ms * interval '1 millisecond', c.queued,
           CASE WHEN c.claim THEN clock_timestamp() + p_lease_ms * interval '1 millisecond' END
      FROM chosen c
     ORDER BY c.occurred_at, c.activity_id
    ON CONFLICT (activity_id, subscription_id) DO NOTHING
    RETURNING id, attempt_count, next_attempt_at, queued, claimed_until)
  SELECT (SELECT count(*)::int FROM inserted),
         (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'id', id,
                   'attempt_count', attempt_count,
                   'due_ms', floor(extract(epoch FROM next_attempt_at) * 1000),
                   'created', true)), '[]')
            FROM inserted WHERE NOT queued AND claimed_until IS NULL),
         (SELECT array_agg(id) FROM inserted WHERE claimed_until IS NOT NULL),
         (SELECT array_agg(DISTINCT head_id) FROM wanted WHERE head_queued AND behind_head)
    INTO v_created, v_heads, v_claim_ids, v_repair;

  UPDATE outbox SET done_at = p_now WHERE id = ANY (v_outbox);

  IF v_repair IS NOT NULL THEN
    -- The repair (see the header): the chain's head was queued; it is unqueued and
    -- returned, as an existing head, for the worker to enqueue.
    EXECUTE
      $q$WITH unqueued AS (
           UPDATE deliveries d SET queued = false
            WHERE d.id = ANY ($1) AND d.queued
           RETURNING d.id, d.attempt_count, d.next_attempt_at)
         SELECT jsonb_agg(jsonb_build_object(
                  'id', id,
                  'attempt_count', attempt_count,
                  'due_ms', floor(extract(epoch FROM next_attempt_at) * 1000),
                  'created', false))
           FROM unqueued$q$
      INTO v_repaired
      USING v_repair;
    IF v_repaired IS NOT NULL THEN
      v_heads := v_heads || v_repaired;
    END IF;
  END IF;

  v_out := jsonb_build_object(
    'result', 'fanned_out',
    'activities', cardinality(v_open),
    'deliveries', v_created,
    'heads', v_heads);
  IF p_claim > 0 THEN
    v_out := v_out || jsonb_build_object('claimed', (
      SELECT coalesce(jsonb_agg(to_jsonb(st) ORDER BY st.occurred_at, st.activity_id,
                                                      st.subscription_id), '[]')
        FROM webhook_claimed_steps(v_claim_ids) st));
  END IF;
  RETURN v_out;
END $$;

ALTER FUNCTION webhook_fan_out(text, timestamptz, integer, integer, integer)
  SET plan_cache_mode = force_generic_plan
  SET enable_seqscan = off;

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
  -- LIMIT 1), succeed. "Pending" is said as "neither final state": written
  -- `status = 'pending'`, it let a plan made while few deliveries were pending
  -- read the whole chain index (deliveries_chain_idx is the pending rows') for
  -- every item (migration 20261123070000). The update names its rows by key
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
