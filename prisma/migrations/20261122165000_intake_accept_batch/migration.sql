-- intake_accept_batch: intake_accept for many leads in ONE round trip and ONE
-- transaction (group commit, services/intake/src/micro-batcher.ts).
--
-- Why: under load the intake process was CPU bound (bench/intake/run.mjs: ~0.85
-- ms of JavaScript and ~0.5 ms of PostgreSQL per lead, ratio to pgbench ~0.25),
-- mostly per-call costs: query dispatch and socket writes in Node, parse/bind/
-- execute and a commit per lead in PostgreSQL. Leads that arrive while a call is
-- in flight now share the next call.
--
-- p_items is a JSON array; each element carries intake_accept's arguments under
-- the parameter names without the p_ prefix, plus "item", its index in the
-- array, which comes back with its row. One row per element, in any order.
--
-- Correctness, as in intake_accept:
-- * Every (account, phone) advisory lock of the batch is taken first, in SORTED
--   key order: two batches (of this process or another) that share keys lock
--   them in the same order, so they wait for each other and never deadlock. The
--   single-lead paths hold at most one such lock (the Idempotency-Key path
--   takes its own key first, a lock no batch takes), so no cycle exists there
--   either.
-- * The duplicate lookup of each item is its own statement after the locks: in
--   a VOLATILE plpgsql function each statement takes a new snapshot, so it sees
--   a rival's lead committed while we waited for the lock.
-- * Items are handled in array order (arrival order), so of two leads with the
--   same phone in one batch the first is accepted and the second, whose lookup
--   sees the first (same transaction), is its duplicate.
-- * It is one transaction: a failure leaves nothing of any item.
CREATE FUNCTION intake_accept_batch(p_items jsonb)
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
      tcpa_opt_in_token text, tcpa_opt_in_url text, ip text, user_agent text,
      window_days integer, received_at timestamptz, submission_id text)
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
                         consent_ip, consent_user_agent, received_at)
      VALUES (v_it.lead_id, v_it.account_id, v_it.source_id, v_it.source_name, v_it.playbook_id, v_it.phone,
              v_it.email, v_it.first_name, v_it.last_name, v_it.fields, v_it.canonical, v_it.extra,
              v_it.external_id, v_it.tcpa_opt_in_token, v_it.tcpa_opt_in_url, v_it.ip, v_it.user_agent,
              v_it.received_at);
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
