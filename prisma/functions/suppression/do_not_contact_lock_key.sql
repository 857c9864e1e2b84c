-- do_not_contact_lock_key: the advisory lock key of one phone of an account's
-- do-not-contact list (docs/api.md, "Do-not-contact").
--
--   Takes:
--     p_account_id, p_phone (E.164)
--   Returns:
--     the bigint key for pg_advisory_xact_lock / pg_advisory_xact_lock_shared
--   Guarantees:
--     - the one definition of the key: whatever adds the phone to the list takes
--       it exclusive (a STOP in activity_record, the API's add and import), a step
--       claim takes it shared (playbook_step_claim), so an add that commits before
--       a claim is always seen by it, and one that comes later waits for the
--       claim's transaction, its send included
--     - no lock and no read of its own; the 'do-not-contact' namespace keeps the
--       key apart from any other advisory lock
CREATE OR REPLACE FUNCTION do_not_contact_lock_key(p_account_id text, p_phone text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT hashtextextended('do-not-contact ' || p_account_id || ' ' || p_phone, 0)
$$;
