-- The webhook worker's hot path in SQL: one round trip per fan-out and per
-- delivery attempt instead of ~10 Prisma statements each (bench/webhooks: the
-- worker spent ~7.7 ms of CPU and PostgreSQL ~4 ms per delivery, mostly on
-- per-statement costs).
--
-- Two columns on deliveries:
-- * claimed_until: the lease of the worker that is trying this delivery now.
--   webhook_claim sets it (under the row lock) and webhook_record_attempt clears
--   it, so at most one attempt of a delivery is in flight at a time, whoever
--   enqueued its job (fast path, retry, reconciler, a stalled job run again).
--   A worker killed mid-attempt leaves it set; it lapses after the attempt
--   timeout plus a margin and the delivery is tried again.
-- * queued: the delivery waits behind an earlier pending delivery of its chain
--   (subscription, lead); it is not the chain's head. Only heads are due, so the
--   reconciler reads heads through deliveries_due_idx and a big backlog behind
--   one dead subscriber's heads costs it nothing. Kept false for every head:
--   fan-out unqueues the head of each chain it touches, a finished delivery
--   unqueues the next one, and the trigger below clears it whenever a row leaves
--   or re-enters pending (redeliver / recover reset rows in the API).
-- And activity_occurred_at, the activity's occurred_at copied into its
-- deliveries (filled by a trigger when an insert leaves it out), so that a
-- chain's head is the first entry of deliveries_chain_idx: finding it read the
-- chain's every pending delivery and activity before, which made draining a long
-- backlog quadratic.

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN "activity_occurred_at" TIMESTAMPTZ(3),
ADD COLUMN "claimed_until" TIMESTAMPTZ(3),
ADD COLUMN "queued" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "deliveries_chain_idx" ON "deliveries"("subscription_id", "lead_id", "activity_occurred_at", "activity_id") WHERE (status = 'pending');

-- DropIndex (the old reconciler's; deliveries_due_idx replaces it, and every
-- status change of a delivery no longer pays for it)
DROP INDEX "deliveries_status_next_attempt_at_idx";

-- CreateIndex
CREATE INDEX "deliveries_due_idx" ON "deliveries"("next_attempt_at") WHERE ((status = 'pending') AND (NOT queued));

-- ---------------------------------------------------------------------------
-- Hand-written below (named in the header of prisma/schema.prisma): a trigger
-- and functions, which Prisma's schema language cannot express.
-- ---------------------------------------------------------------------------

UPDATE deliveries d SET activity_occurred_at = a.occurred_at
  FROM activities a WHERE a.id = d.activity_id;

CREATE FUNCTION deliveries_fill_occurred_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.activity_occurred_at IS NULL THEN
    SELECT occurred_at INTO NEW.activity_occurred_at FROM activities WHERE id = NEW.activity_id;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER deliveries_fill_occurred_at BEFORE INSERT ON deliveries
FOR EACH ROW EXECUTE FUNCTION deliveries_fill_occurred_at();

CREATE FUNCTION deliveries_unqueue_on_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.queued := false;
    IF NEW.status <> 'pending' THEN NEW.claimed_until := NULL; END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER deliveries_unqueue_on_status BEFORE UPDATE OF status ON deliveries
FOR EACH ROW EXECUTE FUNCTION deliveries_unqueue_on_status();

-- A prefixed ULID id, the form of packages/db newId(): prefix, '_', 26 lower-case
-- Crockford base32 characters (48 bits of millisecond time, 80 random bits from
-- gen_random_uuid(), skipping the UUID's version and variant bytes).
CREATE FUNCTION leadhook_new_id(p_prefix text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  v_time bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  v_random bytea := uuid_send(gen_random_uuid());
  v_id text := '';
  v_part text;
  v_bits bigint;
BEGIN
  FOR i IN 1..10 LOOP
    v_id := substr(v_alphabet, (v_time % 32)::int + 1, 1) || v_id;
    v_time := v_time / 32;
  END LOOP;
  FOREACH v_bits IN ARRAY ARRAY[0, 9] LOOP
    -- 40 bits from bytes v_bits .. v_bits + 4 (0-4, then 9-13), as 8 characters
    v_bits := (get_byte(v_random, v_bits::int)::bigint << 32)
            | (get_byte(v_random, v_bits::int + 1)::bigint << 24)
            | (get_byte(v_random, v_bits::int + 2)::bigint << 16)
            | (get_byte(v_random, v_bits::int + 3)::bigint << 8)
            | get_byte(v_random, v_bits::int + 4)::bigint;
    v_part := '';
    FOR i IN 1..8 LOOP
      v_part := substr(v_alphabet, (v_bits % 32)::int + 1, 1) || v_part;
      v_bits := v_bits / 32;
    END LOOP;
    v_id := v_id || v_part;
  END LOOP;
  RETURN p_prefix || '_' || v_id;
END $$;

-- What a delivery step returns to the worker (webhook_claim, webhook_record_attempt):
-- the outcome of the attempt just recorded (record only), then a delivery and
-- what became of claiming it, with everything its webhook body and signature
-- need when it was claimed.
CREATE TYPE webhook_step AS (
  -- webhook_record_attempt: succeeded | retry | failed | disabled | stale
  outcome text,
  retry_at timestamptz,
  disabled_now boolean,
  -- gone (a 410) | failing (5 days)
  disabled_reason text,
  -- claimed | not_found | terminal | stale | not_head | subscription_disabled |
  -- busy (another worker holds the lease) | not_due | unclaimed (not asked to
  -- claim) | NULL (no delivery: the chain is empty)
  claim text,
  delivery_id text,
  attempt_count integer,
  due_at timestamptz,
  subscription_id text,
  lead_id text,
  url text,
  secret text,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  activity_id text,
  activity_type text,
  activity_label text,
  occurred_at timestamptz,
  note text,
  data jsonb,
  activity_enrollment_id text,
  lead_external_id text,
  lead_source_name text,
  lead_first_name text,
  lead_last_name text,
  lead_email text,
  lead_opted_out boolean,
  lead_created_at timestamptz,
  lead_extra jsonb,
  lead_enrollment_id text,
  source_id text,
  source_name text,
  playbook_id text,
  playbook_name text
);

-- The oldest pending delivery of a chain (its activities' occurred_at, then id),
-- or NULL: the first entry of deliveries_chain_idx.
CREATE FUNCTION webhook_chain_head(p_subscription_id text, p_lead_id text)
RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT d.id
      FROM deliveries d
     WHERE d.subscription_id = p_subscription_id
       AND d.lead_id = p_lead_id
       AND d.status = 'pending'
     ORDER BY d.activity_occurred_at, d.activity_id
     LIMIT 1);
END $$;

-- The advisory lock key of a chain (subscription, lead): records and fan-outs
-- that touch one chain take it, in the order said in webhook_record_attempt.
CREATE FUNCTION webhook_chain_lock(p_subscription_id text, p_lead_id text)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(p_subscription_id || ' ' || p_lead_id, 0)
$$;

-- Claims attempt p_attempt of a delivery for p_lease_ms, or says why not. Under
-- the row lock: the row decides, not the job (a job for an attempt the row has
-- moved past, for a terminal delivery, or for one that is not its chain's head
-- does nothing). A job that fires up to 250 ms early (timer granularity) is due.
CREATE FUNCTION webhook_claim(
  p_delivery_id text, p_attempt integer, p_now timestamptz, p_lease_ms integer)
RETURNS SETOF webhook_step LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_d record;
  v_head text;
  v_step webhook_step;
BEGIN
  SELECT d.status, d.attempt_count, d.next_attempt_at, d.claimed_until, d.subscription_id,
         d.lead_id, s.enabled, s.deleted_at
    INTO v_d
    FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
   WHERE d.id = p_delivery_id
     FOR UPDATE OF d;
  v_step.delivery_id := p_delivery_id;
  IF NOT FOUND THEN
    v_step.claim := 'not_found';
  ELSIF v_d.status <> 'pending' THEN
    v_step.claim := 'terminal';
  ELSIF v_d.attempt_count <> p_attempt THEN
    v_step.claim := 'stale';
  ELSIF NOT v_d.enabled OR v_d.deleted_at IS NOT NULL THEN
    UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = p_now
     WHERE subscription_id = v_d.subscription_id AND status = 'pending';
    v_step.claim := 'subscription_disabled';
  ELSE
    v_head := webhook_chain_head(v_d.subscription_id, v_d.lead_id);
    IF v_head <> p_delivery_id THEN
      -- An older activity's delivery appeared after this one was enqueued: it goes first.
      UPDATE deliveries SET queued = false WHERE id = v_head AND queued;
      UPDATE deliveries SET queued = true WHERE id = p_delivery_id AND NOT queued;
      SELECT 'not_head', id, attempt_count, next_attempt_at
        INTO v_step.claim, v_step.delivery_id, v_step.attempt_count, v_step.due_at
        FROM deliveries WHERE id = v_head;
    ELSIF v_d.claimed_until > p_now THEN
      v_step.claim := 'busy';
      v_step.due_at := v_d.claimed_until;
    ELSIF v_d.next_attempt_at > p_now + interval '250 milliseconds' THEN
      v_step.claim := 'not_due';
      v_step.due_at := v_d.next_attempt_at;
    ELSE
      UPDATE deliveries
         SET claimed_until = p_now + p_lease_ms * interval '1 millisecond', queued = false
       WHERE id = p_delivery_id;
      RETURN QUERY
        SELECT NULL::text, NULL::timestamptz, NULL::boolean, NULL::text,
               'claimed'::text, d.id, d.attempt_count, d.next_attempt_at,
               d.subscription_id, d.lead_id, s.url, s.secret, s.previous_secret,
               s.previous_secret_expires_at,
               a.id, a.activity_type, a.activity_label, a.occurred_at, a.note, a.data,
               a.enrollment_id,
               l.external_id, l.source_name, l.first_name, l.last_name, l.email, l.opted_out,
               l.created_at, l.extra, e.id,
               ms.id, ms.name, pb.id, pb.name
          FROM deliveries d
          JOIN subscriptions s ON s.id = d.subscription_id
          JOIN activities a ON a.id = d.activity_id
          JOIN leads l ON l.id = d.lead_id
          JOIN marketing_sources ms ON ms.id = l.source_id
          JOIN playbooks pb ON pb.id = l.playbook_id
          LEFT JOIN enrollments e ON e.lead_id = l.id
         WHERE d.id = p_delivery_id;
      RETURN;
    END IF;
  END IF;
  RETURN NEXT v_step;
END $$;

-- Disables a subscription with the reason the account sees and fails its pending
-- deliveries. Returns whether this call disabled it (for the metric).
CREATE FUNCTION webhook_disable(p_subscription_id text, p_reason text, p_now timestamptz)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_disabled boolean;
BEGIN
  UPDATE subscriptions
     SET enabled = false, disabled_reason = p_reason, disabled_at = p_now, updated_at = p_now
   WHERE id = p_subscription_id AND enabled;
  v_disabled := FOUND;
  UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = p_now
   WHERE subscription_id = p_subscription_id AND status = 'pending';
  RETURN v_disabled;
END $$;

-- Records one HTTP try of a delivery and moves the delivery on, in one
-- transaction (docs/webhooks.md, "Retries"):
-- * the attempt row, always (even for a try that lost a race: it did reach the
--   subscriber);
-- * success: succeeded, and the subscription's failing_since cleared;
-- * a 410: failed, and the subscription disabled;
-- * another failure: failing_since set if unset; failing for p_disable_after_ms
--   disables the subscription; else a retry after p_retry_delay_ms (the
--   schedule's next entry with jitter, at least Retry-After, chosen by the
--   worker), or failed when the schedule is spent (p_retry_delay_ms NULL).
-- When the delivery succeeded or finally failed, its chain's next delivery
-- becomes the head; with p_continue it is claimed at once (webhook_claim), so
-- the worker goes on down the chain without another round trip.
CREATE FUNCTION webhook_record_attempt(
  p_delivery_id text, p_attempt integer, p_attempt_id text, p_attempted_at timestamptz,
  p_now timestamptz, p_ok boolean, p_status_code integer, p_duration_ms integer,
  p_error text, p_response_body text, p_retry_delay_ms bigint, p_disable_after_ms bigint,
  p_continue boolean, p_lease_ms integer)
RETURNS SETOF webhook_step LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_chain record;
  v_d record;
  v_step webhook_step;
  v_claimed webhook_step;
  v_failing timestamptz;
  v_next text;
  v_final text;
BEGIN
  -- Locks in one order everywhere: the chain's lock (webhook_chain_lock), then
  -- the subscription row, then delivery rows (fan-out: the lead's lock, its
  -- chains' locks, subscriptions shared, then rows), so records and fan-outs
  -- wait for each other and never deadlock. The chain lock also means a fan-out
  -- adding to this chain either committed before (its deliveries are seen below)
  -- or runs after this commits (and sees this delivery finished, so it unqueues
  -- the new head itself): a delivery inserted behind this one never stays queued
  -- with no head before it.
  SELECT subscription_id, lead_id INTO v_chain FROM deliveries WHERE id = p_delivery_id;
  IF FOUND THEN
    PERFORM pg_advisory_xact_lock(webhook_chain_lock(v_chain.subscription_id, v_chain.lead_id));
  END IF;
  INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
  VALUES (p_attempt_id, p_delivery_id, p_attempted_at, p_status_code, p_duration_ms, p_error,
          p_response_body);
  -- The subscriber answered (or not) whatever the row says now: its failing_since follows.
  IF p_ok THEN
    UPDATE subscriptions SET failing_since = NULL
     WHERE id = v_chain.subscription_id AND failing_since IS NOT NULL;
  ELSIF p_status_code IS DISTINCT FROM 410 THEN
    UPDATE subscriptions SET failing_since = COALESCE(failing_since, p_attempted_at)
     WHERE id = v_chain.subscription_id
    RETURNING failing_since INTO v_failing;
  END IF;
  SELECT status, attempt_count, subscription_id, lead_id INTO v_d
    FROM deliveries WHERE id = p_delivery_id FOR UPDATE;
  IF NOT FOUND OR v_d.status <> 'pending' OR v_d.attempt_count <> p_attempt THEN
    v_step.outcome := 'stale';
    RETURN NEXT v_step;
    RETURN;
  END IF;

  IF p_ok THEN
    v_final := 'succeeded';
  ELSIF p_status_code = 410 THEN
    v_final := 'failed';
    v_step.outcome := 'disabled';
    v_step.disabled_reason := 'gone';
  ELSIF p_now - v_failing >= p_disable_after_ms * interval '1 millisecond' THEN
    v_final := 'failed';
    v_step.outcome := 'disabled';
    v_step.disabled_reason := 'failing';
  ELSIF p_retry_delay_ms IS NULL THEN
    v_final := 'failed';
  ELSE
    v_step.outcome := 'retry';
    v_step.retry_at := p_now + p_retry_delay_ms * interval '1 millisecond';
    UPDATE deliveries
       SET attempt_count = p_attempt + 1, last_attempt_at = p_attempted_at,
           next_attempt_at = v_step.retry_at, claimed_until = NULL, updated_at = p_now
     WHERE id = p_delivery_id;
    RETURN NEXT v_step;
    RETURN;
  END IF;

  UPDATE deliveries
     SET status = v_final, attempt_count = p_attempt + 1, last_attempt_at = p_attempted_at,
         next_attempt_at = NULL, claimed_until = NULL, updated_at = p_now
   WHERE id = p_delivery_id;
  IF v_step.outcome = 'disabled' THEN
    v_step.disabled_now := webhook_disable(
      v_d.subscription_id,
      CASE v_step.disabled_reason
        WHEN 'gone' THEN 'The endpoint answered 410 Gone.'
        ELSE 'Every delivery failed for 5 days (since '
             || to_char(v_failing AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ').'
      END,
      p_now);
    RETURN NEXT v_step;
    RETURN;
  END IF;

  v_step.outcome := v_final;
  v_next := webhook_chain_head(v_d.subscription_id, v_d.lead_id);
  IF v_next IS NULL THEN
    RETURN NEXT v_step;
    RETURN;
  END IF;
  IF p_continue THEN
    -- webhook_claim unqueues it (or, when it is not due yet, the next statement does).
    SELECT * INTO v_claimed
      FROM webhook_claim(v_next, (SELECT attempt_count FROM deliveries WHERE id = v_next),
                         p_now, p_lease_ms);
    v_claimed.outcome := v_step.outcome;
    UPDATE deliveries SET queued = false WHERE id = v_next AND queued;
    RETURN NEXT v_claimed;
    RETURN;
  END IF;
  UPDATE deliveries SET queued = false WHERE id = v_next AND queued;
  SELECT 'unclaimed', id, attempt_count, next_attempt_at
    INTO v_step.claim, v_step.delivery_id, v_step.attempt_count, v_step.due_at
    FROM deliveries WHERE id = v_next;
  RETURN NEXT v_step;
END $$;

-- Fans an activity out to its subscriptions (docs/webhooks.md), in the caller's one
-- transaction (a single statement): a delivery per enabled, undeleted
-- subscription of the lead's playbook or of the whole account that selected the
-- label (["*"] = all), and the activity's outbox row closed (the
-- consumer closes it once the effect exists). Running it twice creates nothing
-- new: the unique (activity_id, subscription_id), and a closed outbox row means
-- "already fanned out".
--
-- Ordering: activity jobs run concurrently, so the fan-out of a lead's third
-- activity may run before its first. Fan-outs of one lead are serialized by a
-- transaction-scoped advisory lock, and each one also fans out the lead's
-- earlier activities whose outbox rows are still open, so when a chain's head is
-- chosen every earlier activity of the lead already has its delivery (activities
-- are announced after their commit). The LATERAL probe starts from the lead's
-- activities (activities_lead_id_occurred_at_idx) and reads each one's open row
-- through outbox_open_activity_idx (bench/webhooks: the other way round read
-- every open activity row per fan-out).
--
-- New deliveries are due after p_first_delay_ms (the schedule's first entry,
-- with jitter) and queued; then the head of every touched chain is unqueued.
-- Returns {result, activities, deliveries, heads: [{id, attempt_count,
-- due_ms, created}]}, heads being the chains' heads that were queued until now
-- (the worker enqueues them).
CREATE FUNCTION webhook_fan_out(p_activity_id text, p_now timestamptz, p_first_delay_ms integer)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_act record;
  v_open text[];
  v_outbox bigint[];
  v_created text[];
  v_subs text[];
  v_heads jsonb;
BEGIN
  SELECT a.id, a.account_id, a.lead_id, a.occurred_at, l.playbook_id INTO v_act
    FROM activities a JOIN leads l ON l.id = a.lead_id
   WHERE a.id = p_activity_id;
  IF NOT FOUND THEN
    UPDATE outbox SET done_at = p_now
     WHERE topic = 'activity' AND done_at IS NULL
       AND payload = jsonb_build_object('activity_id', p_activity_id);
    RETURN jsonb_build_object('result', 'activity_not_found');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(v_act.lead_id, 0));

  WITH open AS (
    SELECT o.outbox_id, a.id, a.occurred_at
      FROM activities a
      CROSS JOIN LATERAL (
        SELECT b.id AS outbox_id FROM outbox b
         WHERE b.topic = 'activity' AND b.done_at IS NULL
           AND b.payload->>'activity_id' = a.id
           FOR UPDATE) o
     WHERE a.lead_id = v_act.lead_id
       AND (a.occurred_at, a.id) <= (v_act.occurred_at, v_act.id))
  SELECT array_agg(id ORDER BY occurred_at, id), array_agg(outbox_id) INTO v_open, v_outbox
    FROM open;
  IF v_open IS NULL OR NOT (p_activity_id = ANY (v_open)) THEN
    RETURN jsonb_build_object('result', 'already_done');
  END IF;

  -- The locks of the chains this may add to, in subscription order (see
  -- webhook_record_attempt), then the selecting subscriptions, share-locked
  -- until commit: disabling one (an UPDATE) waits for this fan-out, then fails
  -- its deliveries, these included.
  PERFORM pg_advisory_xact_lock(webhook_chain_lock(c.id, v_act.lead_id))
     FROM (SELECT s.id FROM subscriptions s
            WHERE s.account_id = v_act.account_id AND s.enabled AND s.deleted_at IS NULL
              AND (s.playbook_id = v_act.playbook_id OR s.playbook_id IS NULL)
            ORDER BY s.id) c;
  PERFORM 1 FROM subscriptions s
   WHERE s.account_id = v_act.account_id AND s.enabled AND s.deleted_at IS NULL
     AND (s.playbook_id = v_act.playbook_id OR s.playbook_id IS NULL)
     FOR SHARE;

  WITH inserted AS (
    INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, activity_occurred_at,
                            next_attempt_at, queued)
    SELECT leadhook_new_id('dlv'), a.id, s.id, v_act.lead_id, a.occurred_at,
           p_now + p_first_delay_ms * interval '1 millisecond', true
      FROM activities a
      JOIN subscriptions s
        ON s.account_id = v_act.account_id AND s.enabled AND s.deleted_at IS NULL
       AND (s.playbook_id = v_act.playbook_id OR s.playbook_id IS NULL)
     WHERE a.id = ANY (v_open)
       AND (CASE WHEN a.activity_type = 'outcome' THEN s.outcomes ELSE s.events END)
           && ARRAY['*', a.activity_label]
     ORDER BY a.occurred_at, a.id
    ON CONFLICT (activity_id, subscription_id) DO NOTHING
    RETURNING id, subscription_id)
  SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(DISTINCT subscription_id), '{}')
    INTO v_created, v_subs
    FROM inserted;

  UPDATE outbox SET done_at = p_now WHERE id = ANY (v_outbox);

  -- Dynamic SQL, planned at each call: a plan cached while deliveries was small
  -- (a hash join over a sequential scan) made every later fan-out read the
  -- whole table (bench/webhooks/sql-cost.mjs: one sequential scan per fan-out).
  EXECUTE
    $q$WITH unqueued AS (
         UPDATE deliveries d SET queued = false
          WHERE d.id = ANY ($1) AND d.queued
         RETURNING d.id, d.attempt_count, d.next_attempt_at)
       SELECT coalesce(jsonb_agg(jsonb_build_object(
                'id', id,
                'attempt_count', attempt_count,
                'due_ms', floor(extract(epoch FROM next_attempt_at) * 1000),
                'created', id = ANY ($2))), '[]')
         FROM unqueued$q$
    INTO v_heads
    USING ARRAY(SELECT webhook_chain_head(sub, v_act.lead_id) FROM unnest(v_subs) AS sub),
          v_created;

  RETURN jsonb_build_object(
    'result', 'fanned_out',
    'activities', cardinality(v_open),
    'deliveries', cardinality(v_created),
    'heads', v_heads);
END $$;
