import type { ComponentChildren } from 'preact';
import { apiErrorText, isErrorEnvelope } from '../api/errors';

/**
 * A failed call split for a form: the words for each field the API named
 * (`details[].field`, e.g. `steps[1].template`), and what to say at the top
 * (the API's message, plus the problems no field of the form shows).
 */
export interface FormErrors {
  fields: Record<string, string>;
  summary: string;
}

/**
 * `cause` as FormErrors: each detail whose field the form shows (`labelOf` gives
 * its label) goes next to that field, its message naming the field by that label
 * rather than by its path (`steps[1].template is required.` → `Step 2 SMS text is
 * required.`); the others (and a null field) are added to the summary.
 */
export function formErrorsOf(
  cause: unknown,
  response: Response | undefined,
  labelOf: (field: string) => string | undefined,
): FormErrors {
  const fields: Record<string, string> = {};
  const loose: string[] = [];
  if (response && isErrorEnvelope(cause)) {
    for (const detail of cause.error.details ?? []) {
      const label = detail.field === null ? undefined : labelOf(detail.field);
      if (detail.field !== null && label !== undefined) {
        // The API counts steps from 0 ("of step 1" is steps[1]): the field says which.
        const message = detail.message
          .split(detail.field)
          .join(label)
          .replace(/ of step \d+/, '');
        fields[detail.field] = fields[detail.field]
          ? `${fields[detail.field]} ${message}`
          : message;
      } else loose.push(detail.message);
    }
  }
  const summary = [apiErrorText(cause, response), ...loose].join(' ');
  return { fields, summary };
}

/**
 * The API's per-field problems (`error.details[]` of a 422) by field, in the
 * API's words, for a screen that shows each next to its field (a filter bar);
 * the problems of no field under ''. A form with labels uses formErrorsOf.
 */
export function fieldProblems(cause: unknown): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!isErrorEnvelope(cause)) return problems;
  for (const detail of cause.error.details ?? []) {
    const field = detail.field ?? '';
    problems[field] = problems[field] ? `${problems[field]} ${detail.message}` : detail.message;
  }
  return problems;
}

/** The id of a field's error text, for aria-describedby. */
export function errorId(fieldId: string): string {
  return `${fieldId}-error`;
}

/** A field's error in words, right under it (aria-describedby points here). */
export function FieldError({ id, children }: { id: string; children?: ComponentChildren }) {
  if (!children) return null;
  return (
    <p class="error field-error" id={errorId(id)}>
      {children}
    </p>
  );
}

/** The attributes that tie a field to its error: aria-invalid and aria-describedby. */
export function invalidProps(id: string, error: string | undefined, describedBy?: string) {
  const ids = [error ? errorId(id) : undefined, describedBy].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': ids || undefined,
  };
}
