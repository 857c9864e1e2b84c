-- webhook_fan_out with the lead's open activities read by a static statement,
-- not by dynamic SQL planned at every call.
--
-- Why: in a warm session one fan-out of one activity to one subscription cost
-- ~0.5 ms of PostgreSQL, of which ~0.13 ms was parsing and planning that lookup
-- (auto_explain on bench/e2e's database; the rest of the function's statements
-- ran in ~0.25 ms). The dynamic SQL was there because a generic plan for "this
-- lead's activities up to this one" was a sequential scan of activities
-- (20261122204000_fan_out_custom_plans). Since 20261122205000 the function runs
-- with enable_seqscan off, and the lookup now names occurred_at as an index
-- qual of its own, so the generic plan is the lead's range of
-- activities_lead_id_occurred_at_idx at any table size. The tests "fan-out finds
-- the open activities by the lead, also once a session would cache a generic
-- plan" and "fan-out keeps index plans made while the tables were small" hold
-- the rows it reads to the lead's.
--
-- And the selecting subscriptions are share-locked in id order, the order in
-- which webhook_record_attempts and webhook_fan_out_claims take subscription rows
-- (their comments say why): without ORDER BY, the rows were locked in the order
-- of the plan's scan.
--
-- Everything else is webhook_fan_out of 20261122205000_fan_out_lean, unchanged,
-- and so are its settings (generic plans, no sequential scans), set again at the
-- end: CREATE OR REPLACE resets a function's SET clauses.
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

ALTER FUNCTION webhook_fan_out(text, timestamptz, integer)
  SET plan_cache_mode = force_generic_plan
  SET enable_seqscan = off;
