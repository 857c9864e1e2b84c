-- The consent provider of each lead, kept with its consent evidence
-- (docs/intake.md, "Consent evidence"): intake stores the provider the token's
-- shape shows when it accepts the lead (consentProvider, packages/contracts), and
-- the management API reads it from here. Written by hand after the generated
-- ALTER: the backfill gives existing leads what consentProvider gives their
-- stored token (stored trimmed, so matched as it is), with the same patterns.

-- AlterTable
ALTER TABLE "leads" ADD COLUMN     "consent_provider" TEXT;

-- consentProvider: a TrustedForm web certificate (its cert.trustedform.com URL,
-- http or https, or its 40 hex characters alone), else a Jornaya LeadiD (a
-- UUID), either case; null otherwise.
CREATE FUNCTION pg_temp.consent_provider(token text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
           WHEN token ~* '^(https?://cert\.trustedform\.com/)?[0-9a-f]{40}$' THEN 'trustedform'
           WHEN token ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN 'jornaya'
         END
$$;

UPDATE "leads"
   SET "consent_provider" = pg_temp.consent_provider("tcpa_opt_in_token")
 WHERE pg_temp.consent_provider("tcpa_opt_in_token") IS NOT NULL;

ALTER TABLE "leads" ADD CONSTRAINT "leads_consent_provider_check"
  CHECK ("consent_provider" IN ('trustedform', 'jornaya'));
