-- GET /suppressions?import_id= lists the phones one import added, in phone order:
-- this partial index walks one import's entries only (docs/api.md, "The list's API").
-- CreateIndex
CREATE INDEX "suppressions_import_idx" ON "suppressions"("account_id", "import_id", "phone") WHERE (import_id IS NOT NULL);
