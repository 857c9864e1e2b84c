-- webhook_fan_out, leaner: the same contract (its comment in
-- 20261122200000_webhook_hot_path), about half the statements.
--
-- Why: in bench/e2e (200 leads/s, one subscription) a fan-out of one activity cost
-- 2.0 ms of PostgreSQL time, more than half of the whole pipeline's PostgreSQL time
-- per lead (pg_stat_statements: the INSERT 0.43 ms, the UPDATE that unqueued the
-- heads 0.28 ms, the chain-head lookups 0.11 ms, and ~1 ms planning every statement
-- at every call under plan_cache_mode = force_custom_plan).
--
-- * A new delivery is inserted in its final state: queued exactly when an older
--   pending delivery of its chain exists (already stored, or inserted by the same
--   statement before it). Before, every delivery was inserted queued and then each
--   touched chain's head was looked up and updated: an extra non-HOT update (every
--   index of deliveries written twice) per delivery.
-- * That relies on the invariant the other writers keep (webhook_record_attempt
--   unqueues the next delivery when one finishes, webhook_claim re-points a chain
--   whose head appeared late, and a status change unqueues the row): the oldest
--   pending delivery of a chain is never queued. Should it ever be (a row edited by
--   hand), the next fan-out into that chain repairs it as before: the head is
--   unqueued and returned. Each new delivery's head is read anyway, so the check
--   costs nothing, and the repair runs only when it is needed.
-- * A custom plan only where a generic plan goes wrong: the lead's open activities
--   (a generic plan for lead_id = $1 AND (occurred_at, id) <= ($2, $3) scanned all
--   of activities, see 20261122204000_fan_out_custom_plans) are read by dynamic
--   SQL, planned at each call (~0.13 ms); every other statement is key lookups
--   whose cached generic plans are right (planning the insert at each call cost
--   0.3-1 ms).

CREATE OR REPLACE FUNCTION webhook_fan_out(p_activity_id text, p_now timestamptz, p_first_delay_ms integer)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_act record;
  v_open text[];
  v_outbox bigint[];
  v_created integer;
  v_heads jsonb;
  v_repair text[];
  v_repaired jsonb;
BEGIN
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

  EXECUTE
    $q$WITH open AS (
         SELECT o.outbox_id, a.id, a.occurred_at
           FROM activities a
           CROSS JOIN LATERAL (
             SELECT b.id AS outbox_id FROM outbox b
              WHERE b.topic = 'activity' AND b.done_at IS NULL
                AND b.payload->>'activity_id' = a.id
                FOR UPDATE) o
          WHERE a.lead_id = $1
            AND (a.occurred_at, a.id) <= ($2, $3))
       SELECT array_agg(id ORDER BY occurred_at, id), array_agg(outbox_id) FROM open$q$
    INTO v_open, v_outbox
    USING v_act.lead_id, v_act.occurred_at, v_act.id;
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
     FOR SHARE;

  -- Each new delivery with its chain's current head (the oldest pending delivery,
  -- an index probe of deliveries_chain_idx): queued when the head is older, or
  -- when the same statement inserts an older one of its chain first.
  WITH wanted AS (
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
       AND NOT EXISTS (SELECT 1 FROM deliveries x
                        WHERE x.activity_id = a.id AND x.subscription_id = s.id)),
  inserted AS (
    INSERT INTO deliveries (id, activity_id, subscription_id, lead_id,
                            activity_occurred_at, next_attempt_at, queued)
    SELECT leadhook_new_id('dlv'), w.activity_id, w.subscription_id, v_act.lead_id, w.occurred_at,
           p_now + p_first_delay_ms * interval '1 millisecond',
           w.rank > 1 OR coalesce(w.behind_head, false)
      FROM wanted w
     ORDER BY w.occurred_at, w.activity_id
    ON CONFLICT (activity_id, subscription_id) DO NOTHING
    RETURNING id, attempt_count, next_attempt_at, queued)
  SELECT (SELECT count(*)::int FROM inserted),
         (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'id', id,
                   'attempt_count', attempt_count,
                   'due_ms', floor(extract(epoch FROM next_attempt_at) * 1000),
                   'created', true)), '[]')
            FROM inserted WHERE NOT queued),
         (SELECT array_agg(DISTINCT head_id) FROM wanted WHERE head_queued AND behind_head)
    INTO v_created, v_heads, v_repair;

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

  RETURN jsonb_build_object(
    'result', 'fanned_out',
    'activities', cardinality(v_open),
    'deliveries', v_created,
    'heads', v_heads);
END $$;

-- Cached generic plans for every static statement (the open-activities lookup is
-- dynamic SQL, planned at each call whatever this says). Left to itself plpgsql
-- kept re-planning the insert at every call (pg_stat_statements: plans = calls,
-- ~1 ms each on a busy machine), since a generic plan's estimate for "= ANY
-- (array)" looked dearer than the custom ones.
--
-- And no sequential scans: a session caches its plans at its first calls, and in
-- a new database those come while the tables are nearly empty, where a scan is
-- cheapest; autovacuum analyzes (which makes sessions re-plan) a minute or more
-- later. bench/e2e on a fresh database: one sequential scan of activities per
-- fan-out (8.4 M rows read for 4,000 leads) and a ~1 s backlog for its first ten
-- seconds. Every statement here reads by key, so an index is right at any size.
ALTER FUNCTION webhook_fan_out(text, timestamptz, integer)
  SET plan_cache_mode = force_generic_plan
  SET enable_seqscan = off;
