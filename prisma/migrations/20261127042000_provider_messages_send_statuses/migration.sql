-- The statuses of a carrier's send (docs/operations.md, "Twilio"), written by
-- hand (a CHECK constraint): `sending` (the row is committed before the carrier
-- is asked, so a crash in between is seen), `unsent` (the carrier answered
-- 429/5xx and sent nothing: the step's next try sends again), `queued`
-- (accepted, its fate to come by status callback) and the SMS's `opted_out`.
ALTER TABLE "provider_messages" DROP CONSTRAINT "provider_messages_status_check";
ALTER TABLE "provider_messages" ADD CONSTRAINT "provider_messages_status_check"
  CHECK ("status" IN ('sending', 'unsent', 'queued', 'delivered', 'failed', 'undeliverable',
                      'opted_out', 'answered', 'voicemail'));
