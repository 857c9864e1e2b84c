-- Indexes for the retention job (packages/worker-runtime/src/retention.ts): closed
-- outbox rows by done_at, attempts that still keep a response body by attempted_at.
-- Both are partial: the rows the job has finished with leave the index.

-- CreateIndex
CREATE INDEX "attempts_response_body_kept_idx" ON "attempts"("attempted_at") WHERE (response_body IS NOT NULL);

-- CreateIndex
CREATE INDEX "outbox_done_idx" ON "outbox"("done_at") WHERE (done_at IS NOT NULL);
