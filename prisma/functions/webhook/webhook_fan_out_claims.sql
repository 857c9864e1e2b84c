-- webhook_fan_out_claims: many activities fanned out in one transaction
-- (services/webhook-worker batches the fan-outs its jobs ask for).
--
--   Takes:
--     p_items  a JSON array of {activity_id, first_delay_ms, claim}
--     p_now, p_lease_ms
--   Returns:
--     one row per item: its position in p_items (from 1) and
--     webhook_fan_out_claim's answer for it
--   Guarantees:
--     - the lock order for many leads, before any row lock: the leads' locks in
--       lead order, then every chain lock the items may add to, in (lead,
--       subscription) order, as single fan-outs and record batches take them;
--       then the selecting subscriptions share-locked in id order. A subscription
--       created meanwhile can make a deadlock, which PostgreSQL detects; the
--       worker retries the batch, then its items one by one
--     - a lead's items run newest first: the newest fans out the earlier open ones
--       ('already_done' for them)
--     - sequential scans off
CREATE OR REPLACE FUNCTION webhook_fan_out_claims(p_items jsonb, p_now timestamptz, p_lease_ms integer)
RETURNS TABLE (item integer, result jsonb) LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
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
