-- Why a subscription is disabled, as a code the metrics group by
-- (leadhook_webhook_subscriptions_disabled{reason}); disabled_reason stays the
-- sentence the account reads. Written by hand: the backfill reads the sentences
-- that webhook_record_attempt and the API have written so far.
ALTER TABLE "subscriptions" ADD COLUMN "disabled_code" TEXT;

UPDATE "subscriptions"
   SET "disabled_code" = CASE
         WHEN "disabled_reason" = 'manual' THEN 'manual'
         WHEN "disabled_reason" LIKE '%410 Gone%' THEN 'gone'
         WHEN "disabled_reason" LIKE 'Every delivery failed%' THEN 'failing'
       END
 WHERE NOT "enabled";

ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_disabled_code_check"
  CHECK ("disabled_code" IN ('manual', 'gone', 'failing'));
