/**
 * What a template's `{{placeholder}}` may name (docs/api.md, "Playbooks"): the 16
 * submission fields and external_id, as packages/contracts TEMPLATE_PLACEHOLDERS
 * (tests/placeholders.test.ts fails when the two differ).
 */
export const TEMPLATE_PLACEHOLDERS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'current_insurance_carrier',
  'current_insurance_coverage',
  'current_residence_address',
  'current_residence_city',
  'current_residence_state',
  'current_residence_zip',
  'date_of_birth',
  'gender',
  'marital_status',
  'credit_rating',
  'tcpa_opt_in_token',
  'tcpa_opt_in_url',
  'external_id',
] as const;
