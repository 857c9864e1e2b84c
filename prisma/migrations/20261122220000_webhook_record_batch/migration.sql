-- Many delivery attempts recorded in one transaction: webhook_record_attempts.
--
-- Why: bench/webhooks spent about two thirds of PostgreSQL's time per delivery
-- in webhook_record_attempt, one transaction each; a worker sending 32 attempts
-- at once paid 32 commits (each a WAL flush) and 32 round trips where one would
-- do (bench/webhooks/sql-cost.mjs --batch measures the difference). The worker
-- now gathers the attempts that finish while a record is running and records
-- them together (recordAttempts in services/webhook-worker/src/delivery.job.ts).
--
-- Each item is recorded exactly as webhook_record_attempt records it alone (that
-- function does the work, item by item), so the rules live in one place. What
-- this adds is the lock order for many chains in one transaction: every item's
-- chain lock is taken first, in (lead, subscription) order, before any row lock.
-- A fan-out takes its lead's lock, then that lead's chain locks in subscription
-- order, then rows; so every transaction takes advisory locks in one global
-- order (leads, then chains by lead and subscription) and row locks only after
-- all of them, so no two of them deadlock on those locks. The items are then
-- recorded in subscription order, so a batch writes subscription rows (failing_since,
-- a disable) in id order, the order in which fan-outs share-lock them
-- (webhook_fan_out, webhook_fan_out_claims). Row-lock cycles remain possible
-- where other writers lock many delivery rows (a subscription disabled by one
-- batch while another holds one of its deliveries, the API's recover): PostgreSQL
-- detects them, the worker sends the batch again, then its items one by one
-- (MicroBatcher, packages/db), and a record that still fails leaves its delivery
-- leased until the reconciler sends it again.
--
-- p_items: a JSON array of {delivery_id, attempt, attempt_id, attempted_at, ok,
-- status_code, duration_ms, error, response_body, retry_delay_ms, continue}, the
-- arguments of webhook_record_attempt. Returns one row per item: its position in
-- p_items (from 1) and what webhook_record_attempt returned for it.
CREATE FUNCTION webhook_record_attempts(
  p_items jsonb, p_now timestamptz, p_disable_after_ms bigint, p_lease_ms integer)
RETURNS TABLE (item integer, step webhook_step) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_item record;
BEGIN
  -- Each item's delivery is read by its key (LATERAL ... LIMIT 1: a nested loop
  -- of primary-key probes, never a join the planner could turn into a scan of
  -- deliveries; see the note at the end).
  PERFORM pg_advisory_xact_lock(webhook_chain_lock(c.subscription_id, c.lead_id))
     FROM (SELECT DISTINCT d.subscription_id, d.lead_id
             FROM jsonb_array_elements(p_items) AS i(v)
             CROSS JOIN LATERAL (
               SELECT x.subscription_id, x.lead_id FROM deliveries x
                WHERE x.id = i.v->>'delivery_id' LIMIT 1) d
            ORDER BY d.lead_id, d.subscription_id) c;
  FOR v_item IN
    SELECT i.n::integer AS n, x.*
      FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i(v, n)
      CROSS JOIN LATERAL jsonb_to_record(i.v) AS x(
        delivery_id text, attempt integer, attempt_id text, attempted_at timestamptz,
        ok boolean, status_code integer, duration_ms integer, error text,
        response_body text, retry_delay_ms bigint, continue boolean)
      LEFT JOIN LATERAL (
        SELECT y.subscription_id FROM deliveries y WHERE y.id = x.delivery_id LIMIT 1) d ON true
     ORDER BY d.subscription_id, i.n
  LOOP
    item := v_item.n;
    SELECT * INTO step
      FROM webhook_record_attempt(
        v_item.delivery_id, v_item.attempt, v_item.attempt_id, v_item.attempted_at, p_now,
        v_item.ok, v_item.status_code, v_item.duration_ms, v_item.error, v_item.response_body,
        v_item.retry_delay_ms, p_disable_after_ms, v_item.continue, p_lease_ms);
    RETURN NEXT;
  END LOOP;
END $$;

-- Index scans only, in this function and the ones it calls: generic plans are
-- made while a session is new, maybe on nearly empty tables, and are kept until
-- the next analyze. A plain join of the items with deliveries was planned then
-- as a hash join over a sequential scan, and with sequential scans off as a
-- merge join over a full scan of the primary key: bench/webhooks read 22 M index
-- entries of deliveries for 30,000 deliveries. The lookups above are LATERAL
-- with LIMIT 1, which keeps them key probes whatever the table's size; this
-- keeps the plans of the statements they call off sequential scans (the same
-- trap as webhook_fan_out's, 20261122205000_fan_out_lean).
ALTER FUNCTION webhook_record_attempts(jsonb, timestamptz, bigint, integer) SET enable_seqscan = off;
