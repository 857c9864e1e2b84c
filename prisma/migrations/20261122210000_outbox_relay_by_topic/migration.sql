-- Each worker process relays only the outbox topics whose queue it consumes
-- (packages/queue OUTBOX_TOPICS): the relay's claim becomes "due open rows of
-- topic T in next_relay_at order". With the index on next_relay_at alone, the
-- playbook worker's claim would read (and fetch from the heap) every due
-- `activity` row to find its `enrollment` ones, a whole backlog per round while
-- the webhook worker is down or behind.
--
-- One partial index per topic, on next_relay_at, whose predicate also says
-- "next_relay_at IS NOT NULL" (always true: the column is NOT NULL). That clause
-- keeps the index out of reach of the consumers' probes of open rows by payload
-- (the fan-out's "topic = 'activity' AND done_at IS NULL AND payload->>'activity_id'
-- = ...", playbook_enroll's by lead_id): their conditions do not imply it, so the
-- planner can only use the expression indexes outbox_open_activity_idx /
-- outbox_open_enrollment_lead_idx for them. An index on (topic, next_relay_at),
-- or one whose predicate those probes imply, was taken for the probe on a table
-- without statistics yet (a new database, before autovacuum's first analyze),
-- reading every open row of the topic per fan-out (bench/webhooks/sql-cost.mjs:
-- fan-out 0.58 -> 1.3 ms of CPU per activity). The relay's claim ("next_relay_at
-- <= now()", a strict comparison, implies the clause) names its topic as a literal
-- (packages/queue/src/outbox-relay.ts) so the planner can prove the predicate; the
-- lag gauge says the same clause.

-- DropIndex
DROP INDEX "outbox_open_idx";

-- CreateIndex
CREATE INDEX "outbox_relay_enrollment_idx" ON "outbox"("next_relay_at") WHERE ((topic = 'enrollment'::text) AND (done_at IS NULL) AND (next_relay_at IS NOT NULL));

-- CreateIndex
CREATE INDEX "outbox_relay_activity_idx" ON "outbox"("next_relay_at") WHERE ((topic = 'activity'::text) AND (done_at IS NULL) AND (next_relay_at IS NOT NULL));
