-- provider_status_lock_key: the advisory lock key of one carrier id of a
-- provider (docs/operations.md, "Twilio's callbacks").
--
--   Takes:
--     p_provider (provider_messages.provider), p_carrier_id (the carrier's id of
--     a message or call: Twilio's MessageSid or CallSid)
--   Returns:
--     the bigint key for pg_advisory_xact_lock
--   Guarantees:
--     - the one definition of the key: provider_status_hold (intake, a status
--       whose id no row holds) and provider_message_adopt (the worker, the
--       commit of that id) both take it, so a held status is either seen by
--       the commit of its id or, coming later, finds the id committed
--     - no lock and no read of its own; the 'provider-status' namespace keeps
--       the key apart from any other advisory lock
CREATE OR REPLACE FUNCTION provider_status_lock_key(p_provider text, p_carrier_id text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT hashtextextended('provider-status ' || p_provider || ' ' || p_carrier_id, 0)
$$;
