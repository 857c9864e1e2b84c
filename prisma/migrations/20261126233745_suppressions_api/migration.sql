-- AlterTable
ALTER TABLE "suppressions" ADD COLUMN     "note" TEXT;

-- CreateTable
CREATE TABLE "suppression_removals" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "listed_at" TIMESTAMPTZ(3) NOT NULL,
    "removed_by_api_key_id" TEXT NOT NULL,
    "removed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppression_removals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "suppression_removals_account_id_phone_idx" ON "suppression_removals"("account_id", "phone");

-- AddForeignKey
ALTER TABLE "suppression_removals" ADD CONSTRAINT "suppression_removals_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
