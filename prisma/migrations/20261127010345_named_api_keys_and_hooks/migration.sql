-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "name" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "created_via" TEXT NOT NULL DEFAULT 'api';

-- Hand-written (schema.prisma cannot express it): how a subscription was made.
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_created_via_check"
  CHECK ("created_via" IN ('api', 'hooks'));
