import { CALL_STATUSES, SMS_STATUSES } from '@leadhook/providers';
import type { EnrollResult } from './enrollment.job.js';
import type { StepResult } from './step/step.runner.js';

/**
 * The label values the playbook worker counts (docs/operations.md, "Metrics"),
 * as constants so the docs' table is checked against them and every series
 * exists at 0 from the start.
 */

/** `result` of leadhook_playbook_enrollments_total: every EnrollResult kind. */
export const ENROLLMENT_RESULTS = [
  'enrolled',
  'already_enrolled',
  'not_enrollable',
  'lead_not_found',
] as const satisfies readonly EnrollResult['kind'][];

/** The step results that are not a run: counted with `type` "unknown". */
export const STEP_NOT_RUN_RESULTS = [
  'deferred',
  'not_due',
  'skipped',
  'retry',
  'credentials_refused',
] as const satisfies readonly Exclude<StepResult['kind'], 'ran'>[];

/**
 * Every (type, result) series of leadhook_playbook_steps_total: a step run
 * counts its type and the provider's status (`none`/`none` when the playbook no
 * longer has that step); a step that did not run counts `unknown` and its kind.
 */
export const STEP_SERIES: readonly { type: string; result: string }[] = [
  ...SMS_STATUSES.map((result) => ({ type: 'sms', result })),
  ...CALL_STATUSES.map((result) => ({ type: 'call', result })),
  { type: 'none', result: 'none' },
  ...STEP_NOT_RUN_RESULTS.map((result) => ({ type: 'unknown', result })),
];

// Compile-time checks that the lists above name every kind the jobs return.
type Unlisted<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;
const enrollmentsListed: Unlisted<EnrollResult['kind'], (typeof ENROLLMENT_RESULTS)[number]> = true;
const stepsListed: Unlisted<
  Exclude<StepResult['kind'], 'ran'>,
  (typeof STEP_NOT_RUN_RESULTS)[number]
> = true;
export const LISTS_ARE_COMPLETE = enrollmentsListed && stepsListed;
