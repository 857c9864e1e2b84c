-- webhook_fan_out: fans an activity out to its subscriptions (docs/webhooks.md),
-- in the caller's transaction.
--
--   Takes:
--     p_activity_id, p_now, p_first_delay_ms (the schedule's first entry, with
--     jitter), p_claim (how many new heads to claim for the caller, default 0),
--     p_lease_ms (their lease)
--   Returns:
--     {result, activities, deliveries, heads: [{id, attempt_count, due_ms,
--     created}], claimed: [webhook_step]}: heads are the chains' heads not claimed
--     (the worker enqueues them), claimed the ones leased to the caller
--   Guarantees:
--     - a delivery per enabled, undeleted subscription of the lead's playbook or
--       of the account that selected the label; the activity's outbox row closed
--       in the same transaction. Running it twice creates nothing new (a closed
--       outbox row means done; under the lead's lock only the pairs not yet in
--       deliveries are inserted: deliveries is partitioned by id, so the pair has
--       no unique index, docs/operations.md, "History partitions")
--     - the lead's advisory lock, then its chains' locks in subscription order,
--       then the selecting subscriptions share-locked in id order
--     - also fans out the lead's earlier activities whose outbox rows are still
--       open, so a chain's head is chosen after every earlier activity has its
--       delivery (fan-outs may run out of order)
--     - a new delivery is inserted queued exactly when an older pending delivery
--       of its chain exists; a head found queued is repaired and returned
--     - claimed heads are inserted leased: a caller that dies before sending them
--       leaves them to the reconciler once the lease lapses
--   The outbox is partitioned by day of created_at
--   (docs/operations.md, "Outbox partitions"), and the probe of the open rows
--   is bounded so that PostgreSQL prunes it:
--     - an activity's outbox row is written with it, in its transaction, with
--       the activity's own created_at (activity_insert), so each open row is
--       looked for with b.created_at = a.created_at beside its payload key: the
--       probe of each activity descends outbox_open_activity_idx in that one
--       day's partition (pruned at run time), not in every day kept;
--     - and b.created_at <= statement_timestamp(), which prunes the days ahead
--       when the plan starts: every activity probed occurred no later than this
--       one (a.occurred_at <= v_act.occurred_at), its row's created_at is its
--       transaction's start, before its occurred_at (now() <= clock_timestamp()),
--       and this one had committed before its fan-out was asked for, so before
--       the statement that asks for it arrived (should the server's clock step
--       back, a row of the last moments is missed once: its relay asks again);
--     - the rows are closed by (id, created_at) bounded by their earliest and
--       latest created_at, pruned when the plan starts.
--   An activity not found has no created_at to go by: its row is closed by the
--   payload key alone, in every partition (a lead deleted under its fan-out:
--   rare).
--   Settings:
--     plan_cache_mode force_generic_plan: left to itself plpgsql re-planned the
--     insert at every call (~1 ms each on a busy machine); enable_seqscan off: a
--     session caches its plans at its first calls, in a new database while the
--     tables are nearly empty, where a scan looks cheapest, and every statement
--     here reads by key, so an index is right at any size. The lead's open
--     activities are read with occurred_at as an index qual of its own, so the
--     generic plan is the lead's range of activities_lead_id_occurred_at_idx
CREATE OR REPLACE FUNCTION webhook_fan_out(
  p_activity_id text, p_now timestamptz, p_first_delay_ms integer, p_claim integer DEFAULT 0,
  p_lease_ms integer DEFAULT 0)
RETURNS jsonb LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
DECLARE
  v_act record;
  v_open text[];
  v_outbox bigint[];
  v_outbox_from timestamptz;
  v_outbox_to timestamptz;
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
       AND payload->>'activity_id' = p_activity_id;
    RETURN jsonb_build_object('result', 'activity_not_found');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(v_act.lead_id, 0));

  -- The lead's activities up to this one (index quals lead_id and occurred_at on
  -- activities_lead_id_occurred_at_idx; the row comparison only filters ties),
  -- each with its open outbox row, in the partition of the activity's created_at
  -- (see the header).
  WITH open AS (
    SELECT o.outbox_id, o.outbox_at, a.id, a.occurred_at
      FROM activities a
      CROSS JOIN LATERAL (
        SELECT b.id AS outbox_id, b.created_at AS outbox_at FROM outbox b
         WHERE b.topic = 'activity' AND b.done_at IS NULL
           AND b.created_at = a.created_at AND b.created_at <= statement_timestamp()
           AND b.payload->>'activity_id' = a.id
           FOR UPDATE) o
     WHERE a.lead_id = v_act.lead_id
       AND a.occurred_at <= v_act.occurred_at
       AND (a.occurred_at, a.id) <= (v_act.occurred_at, v_act.id))
  SELECT array_agg(id ORDER BY occurred_at, id), array_agg(outbox_id), min(outbox_at), max(outbox_at)
    INTO v_open, v_outbox, v_outbox_from, v_outbox_to
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

  UPDATE outbox SET done_at = p_now
   WHERE id = ANY (v_outbox) AND created_at BETWEEN v_outbox_from AND v_outbox_to;

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
