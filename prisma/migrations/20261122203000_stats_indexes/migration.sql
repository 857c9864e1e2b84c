-- Source stats (GET /marketing_sources/{id}/stats) on a source with a million
-- submissions: bench/stats, bench/RESULTS.md "Stats with 1 M submissions".

-- By day and result: with result in the index the count is an index-only scan of
-- the source's range, no heap page read. Replaces (source_id, created_at), which
-- nothing else used and which this index's prefix still serves.
DROP INDEX "submissions_source_id_created_at_idx";

-- CreateIndex
CREATE INDEX "submissions_source_id_created_at_result_idx" ON "submissions"("source_id", "created_at", "result");

-- Rejection reasons: only the rejected rows of the source's range. Their errors
-- (jsonb) stay in the heap: a 422 listing every field can outgrow an index tuple.
-- CreateIndex
CREATE INDEX "submissions_rejected_source_id_created_at_idx" ON "submissions"("source_id", "created_at") WHERE (result = 'rejected');
