-- Statuses a carrier reported for a message or call whose id no provider_messages
-- row holds yet (docs/operations.md, "Twilio's callbacks"), kept until the
-- worker commits that id. The CHECK constraints are written by hand: the
-- channels and the statuses of packages/providers (SmsStatus, CallStatus).
-- CreateTable
CREATE TABLE "provider_held_statuses" (
    "id" BIGSERIAL NOT NULL,
    "provider" TEXT NOT NULL,
    "carrier_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error_code" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_held_statuses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "provider_held_statuses_provider_carrier_id_idx" ON "provider_held_statuses"("provider", "carrier_id");

-- CreateIndex
CREATE INDEX "provider_held_statuses_received_at_idx" ON "provider_held_statuses"("received_at");

ALTER TABLE "provider_held_statuses" ADD CONSTRAINT "provider_held_statuses_channel_check"
  CHECK ("channel" IN ('sms', 'call'));
ALTER TABLE "provider_held_statuses" ADD CONSTRAINT "provider_held_statuses_status_check"
  CHECK ("status" IN ('queued', 'delivered', 'failed', 'undeliverable', 'opted_out', 'answered',
                      'voicemail'));
