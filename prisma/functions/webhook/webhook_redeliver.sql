-- webhook_redeliver: resets one delivery of an account so it is sent again
-- (docs/api.md, "Deliveries"): pending, attempt_count 0 (the whole retry
-- schedule again; its attempts stay), due at p_now. The API enqueues its
-- chain's head after the commit.
--
--   Takes:
--     p_delivery_id, p_account_id (the delivery's subscription must be the
--     account's and not deleted), p_now
--   Returns:
--     whether the delivery was found (and reset)
--   Guarantees:
--     - one statement on the delivery's row: a worker recording or claiming it
--       sees it before or after the reset; a record of an attempt made before it
--       is stale (attempt_count moved back to 0)
--     - a row that re-enters pending is unqueued (a chain's head is never left
--       queued: fan-outs, claims and records unqueue a chain's head, and queue
--       the deliveries behind it); one already pending keeps its place and its
--       lease
CREATE OR REPLACE FUNCTION webhook_redeliver(p_delivery_id text, p_account_id text,
                                             p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  UPDATE deliveries d
     SET status = 'pending', attempt_count = 0, next_attempt_at = p_now, updated_at = p_now,
         queued = d.queued AND d.status = 'pending'
    FROM subscriptions s
   WHERE d.id = p_delivery_id AND s.id = d.subscription_id
     AND s.account_id = p_account_id AND s.deleted_at IS NULL;
  RETURN FOUND;
END $$;
