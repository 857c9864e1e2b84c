-- webhook_chain_lock: the advisory lock key of a chain (subscription, lead).
--
--   Takes:
--     p_subscription_id, p_lead_id
--   Returns:
--     hashtextextended of both: the key records and fan-outs lock a chain with
--   Guarantees:
--     - every transaction takes advisory locks in one global order (a lead's lock,
--       then its chains' by lead and subscription) and row locks only after them:
--       see webhook_record_attempts and webhook_fan_out_claims
CREATE OR REPLACE FUNCTION webhook_chain_lock(p_subscription_id text, p_lead_id text)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(p_subscription_id || ' ' || p_lead_id, 0)
$$;
