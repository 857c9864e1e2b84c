-- webhook_release: hands a claimed delivery back without recording an attempt
-- (a worker stopping with the attempt still in flight at its drain deadline).
--
--   Takes:
--     p_delivery_id, p_attempt, p_now, p_lease_until (the latest this worker's
--     lease can end: its send time plus the lease it asked for)
--   Returns:
--     whether it released a lease
--   Guarantees:
--     - only a delivery still pending at this attempt, and only this worker's
--       lease: a lease ending after p_lease_until is another worker's, left alone
--     - nothing else changes: the delivery stays its chain's head, due, at the
--       same attempt_count, so the reconciler sends it again now
--     - only the row's own lock, no chain lock: it waits for nothing while holding
--       anything and joins no lock cycle
CREATE OR REPLACE FUNCTION webhook_release(
  p_delivery_id text, p_attempt integer, p_now timestamptz, p_lease_until timestamptz)
RETURNS boolean LANGUAGE sql VOLATILE AS $$
  WITH released AS (
    UPDATE deliveries SET claimed_until = NULL, updated_at = p_now
     WHERE id = p_delivery_id AND status NOT IN ('succeeded', 'failed')
       AND attempt_count = p_attempt
       AND claimed_until IS NOT NULL AND claimed_until <= p_lease_until
    RETURNING 1)
  SELECT EXISTS (SELECT FROM released);
$$;
