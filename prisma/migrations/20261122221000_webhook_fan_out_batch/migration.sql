-- Many activities fanned out in one transaction: webhook_fan_out_claims.
--
-- Why: after attempts were recorded in batches (20261122220000), the fan-outs
-- were most of the webhook worker's transactions and round trips, one per
-- activity, each with its commit. The worker now gathers the fan-outs its jobs
-- ask for while one runs and sends them together (fanout.job.ts).
--
-- Each item is fanned out exactly as webhook_fan_out_claim does it alone (that
-- function does the work, item by item). What this adds is the lock order for
-- many leads in one transaction, before any row lock: the leads' locks in lead
-- order, then the locks of every chain the items may add to, in (lead,
-- subscription) order. That is the order a single fan-out takes them in, and
-- webhook_record_attempts takes chain locks in the same (lead, subscription)
-- order, so batches of either kind and single calls never wait on each other in
-- a cycle on those locks; the selecting subscriptions are then share-locked in id
-- order, the order in which record batches write them. (A subscription created
-- between these steps and the items adds a chain whose lock the item takes
-- later: a deadlock is then possible, detected by PostgreSQL, and the worker
-- sends the batch again, then its items one by one.)
--
-- A lead's items are fanned out newest first: the newest fans out every earlier
-- activity of the lead whose outbox row is open, so the others have nothing left
-- to do ('already_done'), and no chain is extended one call at a time.
--
-- p_items: a JSON array of {activity_id, first_delay_ms, claim}, the arguments of
-- webhook_fan_out_claim that are the item's own. Returns one row per item: its
-- position in p_items (from 1) and webhook_fan_out_claim's answer for it.
CREATE FUNCTION webhook_fan_out_claims(p_items jsonb, p_now timestamptz, p_lease_ms integer)
RETURNS TABLE (item integer, result jsonb) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_item record;
  v_leads text[];
  v_subs text[];
BEGIN
  -- Each item's activity is read by its key (LATERAL ... LIMIT 1: a nested loop of
  -- primary-key probes, see webhook_record_attempts).
  PERFORM pg_advisory_xact_lock(hashtextextended(l.lead_id, 0))
     FROM (SELECT DISTINCT a.lead_id
             FROM jsonb_array_elements(p_items) AS i(v)
             CROSS JOIN LATERAL (
               SELECT x.lead_id FROM activities x WHERE x.id = i.v->>'activity_id' LIMIT 1) a
            ORDER BY a.lead_id) l;
  -- The chains the items may add to: each activity's lead with each subscription
  -- that may select it, read per activity (LATERAL ... OFFSET 0: by
  -- subscriptions_account_id_id_idx for the activity's account, never a join over
  -- all of subscriptions).
  SELECT array_agg(c.lead_id ORDER BY c.lead_id, c.subscription_id),
         array_agg(c.subscription_id ORDER BY c.lead_id, c.subscription_id)
    INTO v_leads, v_subs
    FROM (SELECT DISTINCT a.lead_id, s.id AS subscription_id
            FROM jsonb_array_elements(p_items) AS i(v)
            CROSS JOIN LATERAL (
              SELECT x.lead_id, x.account_id, l.playbook_id
                FROM activities x JOIN leads l ON l.id = x.lead_id
               WHERE x.id = i.v->>'activity_id' LIMIT 1) a
            CROSS JOIN LATERAL (
              SELECT y.id FROM subscriptions y
               WHERE y.account_id = a.account_id AND y.enabled AND y.deleted_at IS NULL
                 AND (y.playbook_id = a.playbook_id OR y.playbook_id IS NULL)
              OFFSET 0) s) c;
  PERFORM pg_advisory_xact_lock(webhook_chain_lock(c.subscription_id, c.lead_id))
     FROM unnest(v_subs, v_leads) WITH ORDINALITY AS c(subscription_id, lead_id, n)
    ORDER BY c.n;
  -- Then every selecting subscription share-locked, in id order, before the
  -- items run (each item share-locks its own again, a no-op then): item by item,
  -- in lead order, the batch would take them in no particular order and could
  -- deadlock with a record batch writing two of them (failing_since) in id order.
  PERFORM 1 FROM subscriptions s WHERE s.id = ANY (v_subs) ORDER BY s.id FOR SHARE;
  FOR v_item IN
    SELECT i.n::integer AS n, i.v->>'activity_id' AS activity_id,
           (i.v->>'first_delay_ms')::integer AS first_delay_ms, (i.v->>'claim')::integer AS claim
      FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i(v, n)
      LEFT JOIN LATERAL (
        SELECT x.lead_id, x.occurred_at, x.id FROM activities x
         WHERE x.id = i.v->>'activity_id' LIMIT 1) a ON true
     ORDER BY a.lead_id, a.occurred_at DESC, a.id DESC, i.n
  LOOP
    item := v_item.n;
    result := webhook_fan_out_claim(v_item.activity_id, p_now, v_item.first_delay_ms,
                                    v_item.claim, p_lease_ms);
    RETURN NEXT;
  END LOOP;
END $$;

-- Index scans only (see webhook_record_attempts: generic plans made on small tables).
ALTER FUNCTION webhook_fan_out_claims(jsonb, timestamptz, integer) SET enable_seqscan = off;
