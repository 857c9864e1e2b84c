-- CreateIndex
CREATE INDEX "provider_messages_provider_to_created_at_idx" ON "provider_messages"("provider", "to", "created_at");
