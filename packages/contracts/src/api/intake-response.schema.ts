import type { FromSchema } from 'json-schema-to-ts';
import { EXTRA_FIELD_LIMITS, LEAD_FIELD_NAMES } from '../lead.schema.js';

/**
 * The answers of the public intake endpoint (docs/intake.md), as published in OpenAPI
 * and in each source's Integration Instructions. Always JSON.
 */

export const intakeAcceptedSchema = {
  title: 'IntakeAccepted',
  type: 'object',
  required: ['status', 'lead_id'],
  properties: {
    status: { type: 'string', const: 'accepted' },
    lead_id: { type: 'string', examples: ['lead_01jdq3v3m5a8f0k2x9b7c6d4e1'] },
  },
} as const;

export const intakeDuplicateSchema = {
  title: 'IntakeDuplicate',
  type: 'object',
  required: ['status', 'lead_id'],
  properties: {
    status: { type: 'string', const: 'duplicate' },
    lead_id: { type: 'string', description: 'The earlier lead with the same phone.' },
  },
} as const;

/**
 * Every problem of the submission, not the first; also the shape of every other
 * error: `status` is "rejected" for what the seller must change (4xx) and "error"
 * for what they should simply retry (429, 5xx).
 */
export const intakeRejectedSchema = {
  title: 'IntakeRejected',
  type: 'object',
  required: ['status', 'errors'],
  properties: {
    status: { type: 'string', enum: ['rejected', 'error'] },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'code', 'message'],
        properties: {
          field: { type: ['string', 'null'] },
          code: {
            type: 'string',
            description:
              'required | invalid | too_long | too_many_fields | consent_unrecognised (fields; too_many_fields also for a body of more than 75 fields, field null; consent_unrecognised: a source that requires a recognised consent certificate got another tcpa_opt_in_token); malformed_body, not_found, idempotency_key_reused, body_too_large, unsupported_media_type, method_not_allowed, rate_limited, unavailable, internal_error (the whole request: field null, or the header concerned)',
          },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;

export type IntakeAccepted = FromSchema<typeof intakeAcceptedSchema>;
export type IntakeDuplicate = FromSchema<typeof intakeDuplicateSchema>;
export type IntakeRejected = FromSchema<typeof intakeRejectedSchema>;

export interface IntakeResponseCase {
  /** When it happens. */
  case: string;
  status: number;
  /** Which body schema (OpenAPI names it). */
  schema: 'IntakeAccepted' | 'IntakeDuplicate' | 'IntakeRejected';
  example: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * The messages of the intake's error answers, one place for intake (which sends
 * them) and for the response table below (which shows them), so the examples a
 * seller reads are what intake really answers.
 */
export const INTAKE_MESSAGES = {
  malformed_json: 'The body could not be parsed as a JSON object.',
  not_an_object: 'The body must be a JSON object.',
  empty_body: 'The body is empty: send the lead as a JSON object or an HTML form.',
  not_a_form:
    'The body is not a form (name=value pairs joined by &). Send JSON as application/json.',
  unreadable: 'The body could not be read.',
  not_found: 'There is no marketing source at this URL. Check the post URL you were given.',
  idempotency_key_reused:
    'This Idempotency-Key was already used with a different body. Use a new key for a new lead.',
  unsupported_media_type: 'Send the lead as application/json or application/x-www-form-urlencoded.',
  unsupported_encoding: 'Send UTF-8, uncompressed or gzip.',
  rate_limited: 'Too many requests for this source. Retry after the delay in Retry-After.',
  unavailable: 'The lead could not be stored right now. Nothing was kept; retry it.',
  method_not_allowed: 'Post leads to this URL with POST.',
} as const;

/**
 * At most this many name=value pairs in a form, or properties in a JSON lead,
 * are read: the 16 fields, external_id, the 50 extra fields, and a margin so
 * that a few extras too many are still answered field by field (422
 * too_many_fields). Over it, intake answers 413 before any other work
 * (docs/intake.md, "Body types").
 */
export const MAX_BODY_FIELDS = LEAD_FIELD_NAMES.length + 1 + EXTRA_FIELD_LIMITS.maxFields + 8;

/** The 413 message for a body of more fields than intake reads. */
export const TOO_MANY_FIELDS_MESSAGE = `The body has more than ${MAX_BODY_FIELDS} fields: a lead has ${LEAD_FIELD_NAMES.length} fields, external_id and at most ${EXTRA_FIELD_LIMITS.maxFields} extra fields.`;

/** The 413 message for a body limit of `maxBodyBytes`. */
export function bodyTooLargeMessage(maxBodyBytes: number): string {
  return `The body is over the ${maxBodyBytes}-byte limit.`;
}

function rejected(field: string | null, code: string, message: string) {
  return { status: 'rejected', errors: [{ field, code, message }] };
}

function retryable(code: string, message: string) {
  return { status: 'error', errors: [{ field: null, code, message }] };
}

/** The default body limit (INTAKE_MAX_BODY_BYTES), as the 413 example shows it. */
const DEFAULT_MAX_BODY_BYTES = 65_536;

/**
 * The response table of docs/intake.md, one row per case. `invalidExample` is the
 * 422 body intake answers for an invalid lead (built by the real validator: see
 * intakeResponses in integration-instructions.ts).
 */
export function intakeResponseCases(
  invalidExample: Record<string, unknown>,
): readonly IntakeResponseCase[] {
  return [
    {
      case: 'Accepted: the lead is stored and will be enrolled in the playbook.',
      status: 201,
      schema: 'IntakeAccepted',
      example: { status: 'accepted', lead_id: 'lead_01jdq3v3m5a8f0k2x9b7c6d4e1' },
    },
    {
      case: "Duplicate: the same phone reached this account within its duplicate window (default 30 days); recorded for attribution, not enrolled again. lead_id is the earlier lead's.",
      status: 200,
      schema: 'IntakeDuplicate',
      example: { status: 'duplicate', lead_id: 'lead_01jdq2a0b1c2d3e4f5g6h7j8k9' },
    },
    {
      case: 'The same Idempotency-Key again for this source within 24 h: the first response is replayed with the header Idempotent-Replayed: true; no new lead.',
      status: 201,
      schema: 'IntakeAccepted',
      example: { status: 'accepted', lead_id: 'lead_01jdq3v3m5a8f0k2x9b7c6d4e1' },
      headers: { 'Idempotent-Replayed': 'true' },
    },
    {
      case: 'Any field missing, blank or invalid: every problem is listed, not only the first.',
      status: 422,
      schema: 'IntakeRejected',
      example: invalidExample,
    },
    {
      case: 'The body is empty, cannot be parsed, is not an object, or (sent as a form) is not a form.',
      status: 400,
      schema: 'IntakeRejected',
      example: rejected(null, 'malformed_body', INTAKE_MESSAGES.malformed_json),
    },
    {
      case: 'Unknown account, or an unknown, rotated, paused or deleted source: one identical body for all.',
      status: 404,
      schema: 'IntakeRejected',
      example: rejected(null, 'not_found', INTAKE_MESSAGES.not_found),
    },
    {
      case: 'The same Idempotency-Key with another body.',
      status: 409,
      schema: 'IntakeRejected',
      example: rejected(
        'Idempotency-Key',
        'idempotency_key_reused',
        INTAKE_MESSAGES.idempotency_key_reused,
      ),
    },
    {
      case: `The body is over the size limit (64 KiB by default), or has more than ${MAX_BODY_FIELDS} fields (too_many_fields).`,
      status: 413,
      schema: 'IntakeRejected',
      example: rejected(null, 'body_too_large', bodyTooLargeMessage(DEFAULT_MAX_BODY_BYTES)),
    },
    {
      case: 'A content type other than application/json or application/x-www-form-urlencoded, or a charset other than UTF-8.',
      status: 415,
      schema: 'IntakeRejected',
      example: rejected(null, 'unsupported_media_type', INTAKE_MESSAGES.unsupported_media_type),
    },
    {
      case: "Over the source's rate limit: retry after the number of seconds in Retry-After.",
      status: 429,
      schema: 'IntakeRejected',
      example: retryable('rate_limited', INTAKE_MESSAGES.rate_limited),
      headers: { 'Retry-After': '1' },
    },
    {
      case: 'The service cannot store the lead right now; nothing was stored: retry.',
      status: 503,
      schema: 'IntakeRejected',
      example: retryable('unavailable', INTAKE_MESSAGES.unavailable),
    },
  ];
}
