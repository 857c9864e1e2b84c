-- webhook_fan_out_claim: webhook_fan_out with its claims, as the worker's batch
-- function (webhook_fan_out_claims) calls it for each item.
--
--   Takes / Returns / Guarantees: webhook_fan_out's.
CREATE OR REPLACE FUNCTION webhook_fan_out_claim(
  p_activity_id text, p_now timestamptz, p_first_delay_ms integer, p_claim integer,
  p_lease_ms integer)
RETURNS jsonb LANGUAGE sql VOLATILE AS $$
  SELECT webhook_fan_out(p_activity_id, p_now, p_first_delay_ms, p_claim, p_lease_ms)
$$;
