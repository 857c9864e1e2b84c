-- CreateTable
CREATE TABLE "suppressions" (
    "account_id" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "lead_id" TEXT,
    "activity_id" TEXT,
    "api_key_id" TEXT,
    "import_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppressions_pkey" PRIMARY KEY ("account_id","phone")
);

-- AddForeignKey
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (schema.prisma cannot say it): the reasons an entry may give.
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_reason_check"
  CHECK ("reason" IN ('opted_out', 'manual', 'imported', 'complaint'));
