-- Each worker process relays only the outbox topics whose queue it consumes
-- (packages/queue OUTBOX_TOPICS): the relay's claim becomes "due open rows of
-- topic T in next_relay_at order". With the index on next_relay_at alone, the
-- playbook worker's claim would read (and fetch from the heap) every due
-- `activity` row to find its `enrollment` ones, a whole backlog per round while
-- the webhook worker is down or behind.
--
-- One partial index per topic, on next_relay_at, whose predicate also says
-- "relay_count >= 0" (always true: NOT NULL, default 0, only ever incremented).
-- Not "next_relay_at IS NOT NULL": from PostgreSQL 17 the planner drops a null
-- test on a NOT NULL column from queries (and may from index predicates), which
-- would undo what the clause is for. That clause
-- keeps the index out of reach of the consumers' probes of open rows by payload
-- (the fan-out's "topic = 'activity' AND done_at IS NULL AND payload->>'activity_id'
-- = ...", playbook_enroll's by lead_id): their conditions do not imply it, so the
-- planner can only use the expression indexes outbox_open_activity_idx /
-- outbox_open_enrollment_lead_idx for them. An index on (topic, next_relay_at),
-- or one whose predicate those probes imply, was taken for the probe on a table
-- without statistics yet (a new database, before autovacuum's first analyze),
-- reading every open row of the topic per fan-out (bench/webhooks/sql-cost.mjs:
-- fan-out 0.58 -> 1.3 ms of CPU per activity). The relay's claim and the lag gauge
-- (packages/queue/src/outbox-relay.ts) write the topic and the clause as literals,
-- so that the planner can prove the predicate.
--
-- Not CONCURRENTLY: the runner applies each migration in a transaction. On a large
-- outbox the build blocks writes to it for its duration (see docs/operations.md, "Migrations").

-- DropIndex
DROP INDEX "outbox_open_idx";

-- CreateIndex
CREATE INDEX "outbox_relay_enrollment_idx" ON "outbox"("next_relay_at") WHERE ((topic = 'enrollment'::text) AND (done_at IS NULL) AND (relay_count >= 0));

-- CreateIndex
CREATE INDEX "outbox_relay_activity_idx" ON "outbox"("next_relay_at") WHERE ((topic = 'activity'::text) AND (done_at IS NULL) AND (relay_count >= 0));
