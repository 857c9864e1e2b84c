-- A carrier's message has statuses the simulation never wrote: `sending`
-- (recorded before the carrier call), `queued` (accepted, its fate to come by
-- status callback) and `opted_out` (the carrier refuses an unsubscribed
-- recipient, Twilio's 21610). The check of 20261122180000_playbook_worker
-- refused them. Dropped if present, so a branch that also widens it merges.
ALTER TABLE "provider_messages" DROP CONSTRAINT IF EXISTS "provider_messages_status_check";
ALTER TABLE "provider_messages" ADD CONSTRAINT "provider_messages_status_check" CHECK ("status" IN ('sending', 'queued', 'delivered', 'failed', 'undeliverable', 'opted_out', 'answered', 'voicemail'));
