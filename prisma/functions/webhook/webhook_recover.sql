-- webhook_recover: Svix's "recover": resets every failed delivery of a
-- subscription created at or after p_since as webhook_redeliver does (docs/api.md,
-- "Deliveries"). Pending and succeeded deliveries are left alone. The API enqueues
-- the head of each chain it touched after the commit.
--
--   Takes:
--     p_subscription_id (the caller checked it is the account's), p_since, p_now
--   Returns:
--     the lead of each delivery reset, one row per delivery (its chain is
--     (p_subscription_id, lead_id))
--   Guarantees:
--     - one statement: a concurrent worker sees each row before or after the reset
--     - the rows reset are unqueued (a chain's head is never left queued; a
--       failed row holds no lease)
CREATE OR REPLACE FUNCTION webhook_recover(p_subscription_id text, p_since timestamptz,
                                           p_now timestamptz)
RETURNS TABLE (lead_id text) LANGUAGE sql VOLATILE AS $$
  UPDATE deliveries d
     SET status = 'pending', attempt_count = 0, next_attempt_at = p_now, updated_at = p_now,
         queued = false
   WHERE d.subscription_id = p_subscription_id AND d.status = 'failed'
     AND d.created_at >= p_since
  RETURNING d.lead_id;
$$;
