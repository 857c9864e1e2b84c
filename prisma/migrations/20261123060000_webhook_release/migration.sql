-- webhook_release hands a claimed delivery back without recording an attempt:
-- a webhook worker that stops while the attempt is still in flight at its drain
-- deadline (services/webhook-worker, delivery.job.ts: handBack) aborts it and
-- ends its lease at once, so the same attempt is sent again by another worker
-- now rather than once the lease lapses (the attempt's timeout plus 5 s). Why
-- no attempt row is written is said there.
--
-- Under webhook_record_attempt's conditions (the delivery still pending at this
-- attempt): a worker whose attempt went stale has nothing to hand back. And only
-- its own lease: p_lease_until is the latest its claim can have leased until (the
-- worker's send time plus the lease it asks for; the claim came before the send).
-- A lease ending later is another worker's, which claimed the same attempt after
-- this one's lapsed (a stalled process): it is left alone. Nothing
-- else of the row changes: it stays its chain's head, due, at the same
-- attempt_count, so the reconciler finds it. Only the row's own lock is taken
-- (nothing of the chain changes, so no chain lock): the statement waits for
-- nothing while it holds anything, and joins no lock cycle.
-- Answers whether it released a lease.
CREATE FUNCTION webhook_release(
  p_delivery_id text, p_attempt integer, p_now timestamptz, p_lease_until timestamptz)
RETURNS boolean LANGUAGE sql VOLATILE AS $$
  WITH released AS (
    UPDATE deliveries SET claimed_until = NULL, updated_at = p_now
     WHERE id = p_delivery_id AND status = 'pending' AND attempt_count = p_attempt
       AND claimed_until IS NOT NULL AND claimed_until <= p_lease_until
    RETURNING 1)
  SELECT EXISTS (SELECT FROM released);
$$;
