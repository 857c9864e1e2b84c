import type { ComponentChildren } from 'preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';

type ErrorEnvelope = Schema<'Error'>;

/**
 * A failed call split for a form: the words for each field the API named
 * (`details[].field`, e.g. `steps[1].template`), and what to say at the top
 * (the API's message, plus the problems no field of the form shows).
 */
export interface FormErrors {
  fields: Record<string, string>;
  summary: string;
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'details' in error;
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
  if (response && isEnvelope(cause)) {
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
