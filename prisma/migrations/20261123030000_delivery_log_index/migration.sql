-- The delivery log's index: a subscription's deliveries by id, the order its
-- pages are read in (GET /subscriptions/{id}/deliveries, newest first, keyset on
-- id), and its failed ones alone (?status=failed, and the recover).
--
-- Why: the index it replaces, (subscription_id, lead_id, status, created_at),
-- had the lead second, so it could serve neither order: a page of a large
-- subscription was either every entry of the subscription read and sorted, or
-- the primary key walked backwards past every other subscription's deliveries.
-- With 405,000 deliveries (20 subscriptions of 20,000, 1 % failed), a page of
-- ?status=failed read all 20,000 entries of the subscription's prefix (5.4 ms,
-- growing with the subscription), and an unfiltered page walked the primary key
-- past 5,959 rows of other subscriptions. Now a page is a range of its index:
-- the page's rows. The failed index holds failed rows only (few), so the
-- delivery hot path, whose rows end succeeded, writes no more index entries than
-- before. Cascading deletes of a subscription's deliveries use either index.

--
-- The new indexes are built before the old one is dropped: the migration is one
-- transaction, and DROP INDEX locks the table against reads too until commit, so
-- dropping first would hold every reader of deliveries for both builds.

-- CreateIndex
CREATE INDEX "deliveries_subscription_id_id_idx" ON "deliveries"("subscription_id", "id");

-- CreateIndex
CREATE INDEX "deliveries_failed_idx" ON "deliveries"("subscription_id", "id") WHERE (status = 'failed');

-- DropIndex
DROP INDEX "deliveries_subscription_id_lead_id_status_created_at_idx";
