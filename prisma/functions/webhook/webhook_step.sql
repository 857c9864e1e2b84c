-- webhook_step: what a delivery step returns to the worker (webhook_claim,
-- webhook_claimed_steps, webhook_record_attempt, webhook_record_attempts): the
-- outcome of the attempt just recorded (records only), then a delivery and what
-- became of claiming it, with everything its webhook body and signature need.
--
--   A type cannot be replaced in place: when this file changes, `pnpm db:diff
--   --functions` drops it with CASCADE and re-emits every function that uses it
--   (docs/operations.md, "Migrations").
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
