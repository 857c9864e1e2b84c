-- intake_accept_batch: intake_accept for many leads in one round trip and one
-- transaction (group commit, services/intake/src/micro-batcher.ts).
--
--   Takes:
--     p_items  a JSON array; each element carries intake_accept's arguments under
--              the parameter names without the p_ prefix, plus "item", its index
--   Returns:
--     one row (item, result, lead_id) per element, in any order
--   Guarantees:
--     - every (account, phone) advisory lock of the batch is taken first, in
--       sorted key order: batches that share keys never deadlock; the single-lead
--       paths hold at most one such lock, so no cycle exists with them either
--     - each item's duplicate lookup is its own statement after the locks (a new
--       snapshot: it sees a rival's lead committed meanwhile)
--     - items are handled in array (arrival) order: of two leads with one phone in
--       a batch, the first is accepted and the second is its duplicate
--     - one transaction: a failure or a crash leaves nothing of any item
--   Why: under load the intake process was CPU bound on per-call costs (query
--   dispatch and socket writes in Node; parse, bind, execute and a commit per
--   lead in PostgreSQL; bench/intake/run.mjs). Leads that arrive while a call is
--   in flight share the next call.
CREATE OR REPLACE FUNCTION intake_accept_batch(p_items jsonb)
RETURNS TABLE (item integer, result text, lead_id text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_key bigint;
  v_it record;
  v_existing text;
BEGIN
  FOR v_key IN
    SELECT DISTINCT (e->>'lock_key')::bigint AS k FROM jsonb_array_elements(p_items) e ORDER BY k
  LOOP
    PERFORM pg_advisory_xact_lock(v_key);
  END LOOP;

  FOR v_it IN
    SELECT * FROM jsonb_to_recordset(p_items) AS x(
      item integer, lead_id text, account_id text, source_id text, source_name text,
      playbook_id text, phone text, email text, first_name text, last_name text,
      fields jsonb, canonical jsonb, extra jsonb, external_id text,
      tcpa_opt_in_token text, tcpa_opt_in_url text, consent_provider text, ip text,
      user_agent text, window_days integer, received_at timestamptz, submission_id text)
    ORDER BY x.item
  LOOP
    SELECT l.id INTO v_existing
      FROM leads l
     WHERE l.account_id = v_it.account_id AND l.phone = v_it.phone
       AND l.created_at > now() - make_interval(days => v_it.window_days)
     ORDER BY l.created_at DESC
     LIMIT 1;

    item := v_it.item;
    IF v_existing IS NOT NULL THEN
      INSERT INTO submissions (id, account_id, source_id, result, lead_id, external_id, ip, user_agent, created_at)
      VALUES (v_it.submission_id, v_it.account_id, v_it.source_id, 'duplicate', v_existing, v_it.external_id,
              v_it.ip, v_it.user_agent, v_it.received_at);
      result := 'duplicate';
      lead_id := v_existing;
    ELSE
      INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email, first_name, last_name,
                         fields, canonical, extra, external_id, tcpa_opt_in_token, tcpa_opt_in_url,
                         consent_provider, consent_ip, consent_user_agent, received_at)
      VALUES (v_it.lead_id, v_it.account_id, v_it.source_id, v_it.source_name, v_it.playbook_id, v_it.phone,
              v_it.email, v_it.first_name, v_it.last_name, v_it.fields, v_it.canonical, v_it.extra,
              v_it.external_id, v_it.tcpa_opt_in_token, v_it.tcpa_opt_in_url, v_it.consent_provider,
              v_it.ip, v_it.user_agent, v_it.received_at);
      INSERT INTO submissions (id, account_id, source_id, result, lead_id, external_id, ip, user_agent, created_at)
      VALUES (v_it.submission_id, v_it.account_id, v_it.source_id, 'accepted', v_it.lead_id, v_it.external_id,
              v_it.ip, v_it.user_agent, v_it.received_at);
      INSERT INTO outbox (topic, payload) VALUES ('enrollment', jsonb_build_object('lead_id', v_it.lead_id));
      result := 'accepted';
      lead_id := v_it.lead_id;
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
