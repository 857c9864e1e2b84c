-- AlterTable
ALTER TABLE "provider_messages" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "carrier_id" TEXT,
ADD COLUMN     "error_code" TEXT,
ADD COLUMN     "provider" TEXT NOT NULL DEFAULT 'simulation';

-- CreateIndex
CREATE UNIQUE INDEX "provider_messages_provider_carrier_id_key" ON "provider_messages"("provider", "carrier_id");
