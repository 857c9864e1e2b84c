-- CreateIndex
CREATE INDEX "activities_enrollment_id_activity_label_idx" ON "activities"("enrollment_id", "activity_label");

-- CreateIndex
CREATE INDEX "activities_outcome_occurred_idx" ON "activities"("account_id", "occurred_at") WHERE (activity_type = 'outcome');

-- ---------------------------------------------------------------------------
-- Hand-written below: an expression index Prisma's schema language cannot
-- express (named in the header of prisma/schema.prisma).
-- ---------------------------------------------------------------------------

-- The enrollment consumer closes the lead's open enrollment rows by
-- payload->>'lead_id'; without this it read through every open outbox row
-- (bench/playbook: 947 M index entries for 10,000 leads).
CREATE INDEX "outbox_open_enrollment_lead_idx" ON "outbox" ((payload->>'lead_id'))
  WHERE topic = 'enrollment' AND done_at IS NULL;

-- The webhook fan-out finds a lead's activities still open in the outbox; with
-- this the planner goes from the lead's activities (activities_lead_id_occurred_at_idx)
-- to their open rows, instead of reading every open activity row.
CREATE INDEX "outbox_open_activity_idx" ON "outbox" ((payload->>'activity_id'))
  WHERE topic = 'activity' AND done_at IS NULL;
