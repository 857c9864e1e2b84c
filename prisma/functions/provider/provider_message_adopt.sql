-- provider_message_adopt: records the carrier's id of a message or call the
-- carrier accepted (its 201, or found in its list by a step's reconcile), the
-- row `queued`, and says whether statuses of that id are waiting for it
-- (docs/operations.md, "Twilio's callbacks"). From then on the row's status
-- changes only by the callbacks' rule (packages/providers), which records the
-- activity of each change with it; what the carrier's list said became of it
-- is held first (provider_status_hold) and applied by that rule too.
--
--   Takes:
--     p_id (provider_messages.id), p_carrier_id
--   Returns:
--     true when provider_held_statuses holds statuses of the id (the caller,
--     the step's transaction, applies them: packages/providers
--     applyHeldStatuses); false when none, or the row is gone
--   Guarantees:
--     - the id is written first, then the id's advisory lock is taken
--       (provider_status_lock_key) and the held statuses looked for with a new
--       snapshot: a provider_status_hold that kept a status before this commit
--       is seen; one that comes after finds the row. Held statuses of an id are
--       therefore complete once this commits
--     - a carrier id another row holds raises unique_violation (23505), and
--       nothing is written
--     - runs in its own transaction on the provider's connection while the
--       step's transaction holds the lead's lock: it waits only for the row's
--       own lock and the advisory lock, neither of which is held by anyone
--       waiting for the lead's
CREATE OR REPLACE FUNCTION provider_message_adopt(p_id text, p_carrier_id text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_provider text;
BEGIN
  UPDATE provider_messages
     SET status = 'queued', carrier_id = p_carrier_id, error_code = NULL, updated_at = now()
   WHERE id = p_id
  RETURNING provider INTO v_provider;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  PERFORM pg_advisory_xact_lock(provider_status_lock_key(v_provider, p_carrier_id));
  RETURN EXISTS (SELECT 1 FROM provider_held_statuses h
                  WHERE h.provider = v_provider AND h.carrier_id = p_carrier_id);
END;
$$;
