-- provider_status_hold: keeps a carrier's status of a message or call whose id
-- no provider_messages row holds (docs/operations.md, "Twilio's callbacks"),
-- for the worker to apply when it commits that id. Intake calls it, on its own
-- (one statement, its own transaction), once its looks for the id found none.
--
--   Takes:
--     p_provider, p_carrier_id, p_channel ('sms' | 'call'), p_status
--     (leadhook's status the callback means, not null), p_error_code (the
--     carrier's, or NULL), p_received_at (when intake received the callback)
--   Returns:
--     true: kept in provider_held_statuses; false: a row holds the id now, and
--     nothing was kept (the caller applies the status to that row instead)
--   Guarantees:
--     - under the id's advisory lock (provider_status_lock_key), which
--       provider_message_adopt takes after writing the id and before looking
--       for held statuses: either this looks after that commit and finds the
--       row (false), or the commit waits for this one and then sees the status
--       it kept. A status is never kept for an id already committed, nor
--       missed by the commit that comes after it
--     - the row is looked for after the lock is granted (a VOLATILE function
--       reads with a new snapshot per statement), so a commit the lock waited
--       for is seen
--     - waits for no other lock: no row lock, not the lead's, so it cannot
--       close a cycle with a step transaction (which holds the lead's lock
--       while its provider commits the id)
CREATE OR REPLACE FUNCTION provider_status_hold(
  p_provider text, p_carrier_id text, p_channel text, p_status text, p_error_code text,
  p_received_at timestamptz)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(provider_status_lock_key(p_provider, p_carrier_id));
  IF EXISTS (SELECT 1 FROM provider_messages m
              WHERE m.provider = p_provider AND m.carrier_id = p_carrier_id) THEN
    RETURN false;
  END IF;
  INSERT INTO provider_held_statuses (provider, carrier_id, channel, status, error_code, received_at)
  VALUES (p_provider, p_carrier_id, p_channel, p_status, p_error_code, p_received_at);
  RETURN true;
END;
$$;
