-- Each worker process relays only the outbox topics whose queue it consumes
-- (packages/queue OUTBOX_TOPICS): the relay's claim becomes "due open rows of
-- topic T in next_relay_at order". With the index on next_relay_at alone, the
-- playbook worker's claim would read (and fetch from the heap) every due
-- `activity` row to find its `enrollment` ones, a whole backlog per round while
-- the webhook worker is down or behind. The age gauge (min(created_at) of the open
-- rows) reads this partial index as it read the old one.

-- DropIndex
DROP INDEX "outbox_open_idx";

-- CreateIndex
CREATE INDEX "outbox_open_topic_idx" ON "outbox"("topic", "next_relay_at") WHERE (done_at IS NULL);
