-- CreateTable
CREATE TABLE "provider_messages" (
    "id" TEXT NOT NULL,
    "lead_id" TEXT NOT NULL,
    "enrollment_id" TEXT,
    "step" INTEGER,
    "channel" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "body" TEXT,
    "status" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "provider_messages_idempotency_key_key" ON "provider_messages"("idempotency_key");

-- CreateIndex
CREATE INDEX "provider_messages_lead_id_created_at_idx" ON "provider_messages"("lead_id", "created_at");

-- CreateIndex
CREATE INDEX "provider_messages_enrollment_id_idx" ON "provider_messages"("enrollment_id");

-- AddForeignKey
ALTER TABLE "provider_messages" ADD CONSTRAINT "provider_messages_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_messages" ADD CONSTRAINT "provider_messages_enrollment_id_fkey" FOREIGN KEY ("enrollment_id") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written below: CHECK constraints Prisma's schema language cannot
-- express (see prisma/schema.prisma).
ALTER TABLE "provider_messages" ADD CONSTRAINT "provider_messages_channel_check" CHECK ("channel" IN ('sms', 'call'));
ALTER TABLE "provider_messages" ADD CONSTRAINT "provider_messages_status_check" CHECK ("status" IN ('delivered', 'failed', 'undeliverable', 'answered', 'voicemail'));
