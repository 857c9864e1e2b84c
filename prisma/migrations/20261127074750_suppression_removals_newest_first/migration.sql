-- GET /suppressions/removals lists an account's removals newest first by id, a
-- page at a time: this index is its keyset walk (docs/api.md, "The list's API").
-- CreateIndex
CREATE INDEX "suppression_removals_account_id_id_idx" ON "suppression_removals"("account_id", "id");
