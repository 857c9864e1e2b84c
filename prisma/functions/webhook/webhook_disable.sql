-- webhook_disable: disables a subscription with the reason the account sees
-- and fails its pending deliveries (unqueued, their leases ended). A REST hook
-- (created_via 'hooks') that answered 410 Gone is deleted too (deleted_at set:
-- docs/api.md, "REST hooks"), as its platform unsubscribed; an ordinary
-- subscription is only disabled, so the account can see why and re-enable it.
--
--   Takes:
--     p_subscription_id, p_code (gone | failing: the disabled_code metrics group
--     by), p_reason (the sentence), p_now
--   Returns:
--     whether this call disabled it (for the metric); false when it already was
--   Guarantees:
--     - the subscription row, then its pending deliveries' rows, in the caller's
--       transaction: a crash leaves it enabled with its deliveries pending
CREATE OR REPLACE FUNCTION webhook_disable(
  p_subscription_id text, p_code text, p_reason text, p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_disabled boolean;
BEGIN
  UPDATE subscriptions
     SET enabled = false, disabled_code = p_code, disabled_reason = p_reason,
         disabled_at = p_now, updated_at = p_now,
         deleted_at = CASE WHEN p_code = 'gone' AND created_via = 'hooks'
                           THEN coalesce(deleted_at, p_now) ELSE deleted_at END
   WHERE id = p_subscription_id AND enabled;
  v_disabled := FOUND;
  UPDATE deliveries
     SET status = 'failed', next_attempt_at = NULL, queued = false, claimed_until = NULL,
         updated_at = p_now
   WHERE subscription_id = p_subscription_id AND status = 'pending';
  RETURN v_disabled;
END $$;
