-- webhook_fan_out plans each statement at each call. After five calls in a session
-- plpgsql may switch a statement to a generic plan; for the lead's open activities
-- (lead_id = $1 AND (occurred_at, id) <= ($2, $3)) that plan was a sequential scan
-- of activities: in bench/e2e (100,000 leads) 64,469 sequential scans read 3.4
-- billion rows and fan-out fell to ~70 activities/s. With custom plans: no
-- sequential scan, ~270 activities/s on the same database (measured live by this
-- ALTER on the running bench).
ALTER FUNCTION webhook_fan_out(text, timestamptz, integer) SET plan_cache_mode = force_custom_plan;
