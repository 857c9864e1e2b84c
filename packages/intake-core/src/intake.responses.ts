/**
 * The intake's response bodies (docs/intake.md, "Answers"), always JSON. Every error answers
 * the shape of a rejected lead, `{"status", "errors":[{field, code, message}]}`,
 * so a seller parses one shape: `status` is "rejected" for what the seller must
 * change (4xx) and "error" for what they should simply retry (429, 5xx);
 * `field` is null when the problem is not about one field.
 */
import { INTAKE_MESSAGES, type LeadFieldError, rejectionReasons } from '@leadhook/contracts';

export interface ErrorItem {
  field: string | null;
  code: string;
  message: string;
}

export interface ErrorBody {
  status: 'rejected' | 'error';
  errors: ErrorItem[];
}

export type SuccessBody = { status: 'accepted' | 'duplicate'; lead_id: string };

/**
 * A rejection's codes for a request's log line: `field:code` for a lead field and
 * the bare code for a problem with a field of the seller's own (its name is the
 * seller's data).
 */
export function logReasons(errors: readonly LeadFieldError[]): string[] {
  return rejectionReasons(errors).map(({ field, code }) =>
    field === null ? code : `${field}:${code}`,
  );
}

export function acceptedBody(leadId: string): SuccessBody {
  return { status: 'accepted', lead_id: leadId };
}

export function duplicateBody(leadId: string): SuccessBody {
  return { status: 'duplicate', lead_id: leadId };
}

export function rejectedBody(errors: readonly (LeadFieldError | ErrorItem)[]): ErrorBody {
  return {
    status: 'rejected',
    errors: errors.map(({ field, code, message }) => ({ field, code, message })),
  };
}

export function errorBody(code: string, message: string, field: string | null = null): ErrorBody {
  return { status: 'rejected', errors: [{ field, code, message }] };
}

/** The 409 of an Idempotency-Key sent again with another body. */
export function idempotencyConflictBody(): ErrorBody {
  return errorBody(
    'idempotency_key_reused',
    INTAKE_MESSAGES.idempotency_key_reused,
    'Idempotency-Key',
  );
}

export function retryableBody(code: string, message: string): ErrorBody {
  return { status: 'error', errors: [{ field: null, code, message }] };
}

/**
 * One body, byte for byte, for every "not found": an unknown account, an unknown,
 * rotated, paused or deleted source, or any other path. Nothing in it tells a
 * guesser which part was wrong.
 */
export const NOT_FOUND_BODY = JSON.stringify(errorBody('not_found', INTAKE_MESSAGES.not_found));
