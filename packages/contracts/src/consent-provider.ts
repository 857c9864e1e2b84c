/**
 * The lead-verification provider a `tcpa_opt_in_token` comes from, recognised
 * by its shape (docs/intake.md, "Consent evidence"). Shape only: nothing here
 * asks the provider whether the certificate exists.
 */

export const CONSENT_PROVIDERS = ['trustedform', 'jornaya'] as const;
export type ConsentProvider = (typeof CONSENT_PROVIDERS)[number];

/** What a marketing source requires of the token: any non-blank one, or a recognised one. */
export const CONSENT_REQUIREMENTS = ['any', 'recognised'] as const;
export type ConsentRequirement = (typeof CONSENT_REQUIREMENTS)[number];

/**
 * A TrustedForm web certificate: its id (40 hex characters) alone, or its URL
 * on cert.trustedform.com (what the TrustedForm script puts in the form's
 * xxTrustedFormCertUrl field). Mobile and Facebook certificate ids have other
 * shapes and are not recognised.
 */
const TRUSTEDFORM = /^(?:https?:\/\/cert\.trustedform\.com\/)?[0-9a-f]{40}$/i;

/** A Jornaya LeadiD token: a UUID, 8-4-4-4-12 hex digits, either case. */
const JORNAYA = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The 422 message of a token a "recognised" source does not take (code consent_unrecognised). */
export const CONSENT_UNRECOGNISED_MESSAGE =
  'must be a TrustedForm certificate (https://cert.trustedform.com/<40 hex characters>, or the 40 hex characters alone) or a Jornaya LeadiD token (a UUID)';

/** The provider whose token shape `token` has (trimmed first), or null. */
export function consentProvider(token: string): ConsentProvider | null {
  const text = token.trim();
  if (TRUSTEDFORM.test(text)) return 'trustedform';
  if (JORNAYA.test(text)) return 'jornaya';
  return null;
}
