-- GET /leads filters (docs/api.md, "Leads"). A filtered page reads the account's
-- leads matching it, newest first. By phone it already has
-- leads_account_id_phone_created_at_idx (the duplicate lookup); external_id and
-- the email need their own, or each lookup would walk every lead of the account.
-- outcome and received_at get none: they filter the walk of leads_account_id_id_idx
-- newest first, which stops at the page's last match, and an index on outcome
-- would cost the activity path its HOT update of leads.

-- CreateIndex
CREATE INDEX "leads_account_id_external_id_idx" ON "leads"("account_id", "external_id");

-- Hand-written (an expression index, which schema.prisma cannot express): the email
-- is matched whatever its case, lower(email) = lower($1), the form this index holds.
CREATE INDEX "leads_account_id_lower_email_idx" ON "leads"("account_id", lower("email"));
