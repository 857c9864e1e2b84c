-- intake_accept: stores one submitted lead in one round trip (docs/intake.md).
--
--   Takes:
--     p_lock_key         the (account, phone) advisory lock key
--     p_lead_id ...      the lead's columns as validated by the intake route (with
--                        p_consent_provider, the provider its token's shape shows,
--                        or null), its accepted submission's id (p_submission_id)
--     p_window_days      the duplicate window: a lead of the account with this
--                        phone received in it makes this submission a duplicate
--   Returns:
--     one row (result, lead_id): 'accepted' with the new lead, or 'duplicate'
--     with the account's newest lead of this phone inside the window
--   Guarantees:
--     - takes pg_advisory_xact_lock(p_lock_key) first; the duplicate lookup is a
--       statement of its own after it, so (each plpgsql statement taking a new
--       snapshot) it sees a rival's lead committed while we waited
--     - the lead, its submission and its outbox row are written together: called
--       alone it is its own transaction, inside an explicit one (the
--       Idempotency-Key path) it joins it; a crash leaves all or nothing
--   Why a function: an accepted lead used to cost BEGIN with the lock, the
--   insert and COMMIT as three round trips, and socket writes to PostgreSQL were
--   the intake's largest CPU cost. The lock and the lookup must be separate
--   statements (a READ COMMITTED statement's snapshot is taken when it starts, so
--   a lookup that waited on the lock inside the same statement would miss the
--   rival's committed lead); in a VOLATILE plpgsql function each statement takes
--   a new snapshot.
CREATE OR REPLACE FUNCTION intake_accept(
  p_lock_key bigint,
  p_lead_id text,
  p_account_id text,
  p_source_id text,
  p_source_name text,
  p_playbook_id text,
  p_phone text,
  p_email text,
  p_first_name text,
  p_last_name text,
  p_fields jsonb,
  p_canonical jsonb,
  p_extra jsonb,
  p_external_id text,
  p_tcpa_opt_in_token text,
  p_tcpa_opt_in_url text,
  p_consent_provider text,
  p_ip text,
  p_user_agent text,
  p_window_days integer,
  p_received_at timestamptz,
  p_submission_id text
) RETURNS TABLE (result text, lead_id text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_existing text;
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock_key);

  SELECT l.id INTO v_existing
    FROM leads l
   WHERE l.account_id = p_account_id AND l.phone = p_phone
     AND l.created_at > now() - make_interval(days => p_window_days)
   ORDER BY l.created_at DESC
   LIMIT 1;

  IF v_existing IS NOT NULL THEN
    INSERT INTO submissions (id, account_id, source_id, result, lead_id, external_id, ip, user_agent, created_at)
    VALUES (p_submission_id, p_account_id, p_source_id, 'duplicate', v_existing, p_external_id, p_ip, p_user_agent, p_received_at);
    RETURN QUERY SELECT 'duplicate'::text, v_existing;
    RETURN;
  END IF;

  INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email, first_name, last_name,
                     fields, canonical, extra, external_id, tcpa_opt_in_token, tcpa_opt_in_url,
                     consent_provider, consent_ip, consent_user_agent, received_at)
  VALUES (p_lead_id, p_account_id, p_source_id, p_source_name, p_playbook_id, p_phone, p_email, p_first_name, p_last_name,
          p_fields, p_canonical, p_extra, p_external_id, p_tcpa_opt_in_token, p_tcpa_opt_in_url,
          p_consent_provider, p_ip, p_user_agent, p_received_at);
  INSERT INTO submissions (id, account_id, source_id, result, lead_id, external_id, ip, user_agent, created_at)
  VALUES (p_submission_id, p_account_id, p_source_id, 'accepted', p_lead_id, p_external_id, p_ip, p_user_agent, p_received_at);
  INSERT INTO outbox (topic, payload) VALUES ('enrollment', jsonb_build_object('lead_id', p_lead_id));
  RETURN QUERY SELECT 'accepted'::text, p_lead_id;
END;
$$;
