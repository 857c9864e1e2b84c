-- What a marketing source requires of a lead's tcpa_opt_in_token
-- (docs/intake.md, "Consent evidence"): 'any' non-blank token, as before, or a
-- 'recognised' certificate (TrustedForm or Jornaya). Existing sources keep 'any'.
ALTER TABLE "marketing_sources" ADD COLUMN "consent_required" TEXT NOT NULL DEFAULT 'any';

ALTER TABLE "marketing_sources" ADD CONSTRAINT "marketing_sources_consent_required_check"
  CHECK ("consent_required" IN ('any', 'recognised'));
