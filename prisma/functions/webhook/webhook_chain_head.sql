-- webhook_chain_head: the oldest pending delivery of a chain, or NULL.
--
--   Takes:
--     p_subscription_id, p_lead_id
--   Returns:
--     the id of the chain's head (its activities' occurred_at, then activity id):
--     the first entry of deliveries_chain_idx
--   Guarantees:
--     - reads only, no lock: callers that act on the head hold the chain's lock
--     - runs with sequential scans off, so a plan cached while the tables were
--       small stays a keyed read
CREATE OR REPLACE FUNCTION webhook_chain_head(p_subscription_id text, p_lead_id text)
RETURNS text LANGUAGE plpgsql STABLE
SET enable_seqscan = off
AS $$
BEGIN
  RETURN (
    SELECT d.id
      FROM deliveries d
     WHERE d.subscription_id = p_subscription_id
       AND d.lead_id = p_lead_id
       AND d.status = 'pending'
     ORDER BY d.activity_occurred_at, d.activity_id
     LIMIT 1);
END $$;
