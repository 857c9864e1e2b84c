-- The provider's inbound hook (POST /providers/{provider}/inbound on intake).
--
-- A carrier retries a webhook it thinks failed, with the same message id: the
-- first delivery records the reply (message_received through the activity path)
-- and this row, in one transaction; a retry finds the row and records nothing.
CREATE TABLE "provider_inbound" (
    "provider" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "lead_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_inbound_pkey" PRIMARY KEY ("provider","message_id")
);

CREATE INDEX "provider_inbound_lead_id_idx" ON "provider_inbound"("lead_id");

ALTER TABLE "provider_inbound" ADD CONSTRAINT "provider_inbound_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A reply is matched to its lead by the sender's number, across accounts (the
-- hook belongs to the deployment): without this every inbound SMS read all leads.
CREATE INDEX "leads_phone_idx" ON "leads"("phone");
