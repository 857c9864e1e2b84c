/**
 * Validation and normalization of a lead submission (docs/intake.md, "Fields") against the one
 * schema in lead.schema.ts. Intake and the automation-platform action both call
 * createLeadValidator, so a lead is judged the same way on every path.
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isUnstorableText, UNSTORABLE_TEXT_MESSAGE } from './json-text.js';
import {
  isHttpUrl,
  isUsState,
  normalizeZip,
  type ParsedPhone,
  parsePhone,
  toPastIsoDate,
  trimInvisible,
  zipFromNumber,
} from './lead.formats.js';
import {
  CANONICAL_FIELDS,
  EXTRA_FIELD_LIMITS,
  LEAD_FIELD_NAMES,
  LEAD_FIELDS,
  type LeadFieldName,
  leadSubmissionSchema,
} from './lead.schema.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext its default
// import is the module object, so the plugin is its `default`.
const addFormats = addFormatsModule.default;

export type LeadErrorCode =
  | 'required'
  | 'invalid'
  | 'too_long'
  | 'too_many_fields'
  | 'consent_unrecognised';

export interface LeadFieldError {
  field: string;
  code: LeadErrorCode;
  message: string;
}

/**
 * What is kept of a rejection (the submission row, the source's stats, a stored
 * idempotent answer): a code, and the field only when it is one of ours. An
 * unknown field's name is the seller's data (a JSON body posted as a form makes
 * the whole body a name), so a problem with one is `unknown_field` (or
 * `too_many_fields`) with field null.
 */
export interface StoredRejectionReason {
  field: string | null;
  code: LeadErrorCode | 'unknown_field';
}

/** The extra field where an extension written after the phone number is kept. */
export const PHONE_EXTENSION_FIELD = 'phone_extension';

/**
 * Names refused as extra fields (docs/intake.md, "Extra fields"): the names of
 * JavaScript's object machinery. A form parser or a downstream consumer that
 * reads them into a plain object would drop them or change the object's
 * prototype; refused, a form and a JSON body are treated the same.
 */
const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

export type CanonicalFieldName = (typeof CANONICAL_FIELDS)[number];
export type ExtraValue = string | number | boolean | null;

/** A lead as stored: every field validated and normalized. */
export interface NormalizedLead {
  /** Trimmed; phone E.164, state upper case, zip 12345 or 12345-6789, dob YYYY-MM-DD;
   * gender, marital_status and credit_rating exactly as sent. */
  fields: Record<LeadFieldName, string>;
  /** Trimmed, lower-cased gender, marital_status, credit_rating. */
  canonical: Record<CanonicalFieldName, string>;
  /** Unknown fields, as sent (bounded by EXTRA_FIELD_LIMITS). */
  extra: Record<string, ExtraValue>;
  externalId: string | null;
}

export type LeadValidationResult =
  | { ok: true; lead: NormalizedLead }
  | { ok: false; errors: LeadFieldError[] };

export interface LeadValidatorOptions {
  /** The clock that decides what "a past date" is (tests pass a fixed instant). */
  now?: () => Date;
}

export type LeadValidator = (body: Readonly<Record<string, unknown>>) => LeadValidationResult;

const KNOWN_FIELDS: ReadonlySet<string> = new Set([...LEAD_FIELD_NAMES, 'external_id']);

/** One of our fields (the 16 required ones and external_id), not one of the seller's own. */
export function isLeadField(name: string): boolean {
  return KNOWN_FIELDS.has(name);
}
/** Sellers often send these two as JSON numbers (docs/intake.md, "Fields"). */
const NUMBER_AS_STRING_FIELDS: ReadonlySet<string> = new Set(['phone', 'current_residence_zip']);

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'must be an email address, like jane.doe@example.com',
  phone:
    'must be a dialable phone number: 10 digits for US/Canada in any common notation, or + and the country code',
  'us-state': 'must be a two-letter US state or territory code, like TX',
  'us-zip': 'must be a 5-digit ZIP or ZIP+4, like 78701 or 78701-1234',
  'past-date': 'must be a real date in the past, as YYYY-MM-DD (recommended) or MM/DD/YYYY',
  'http-url': 'must be an http(s) URL, like https://quotes.example.com/consent',
};

/** When one field breaks several rules, the most useful one is reported. */
const RANK: Record<string, number> = { required: 0, type: 1, maxLength: 2, format: 3 };

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') {
    return String((error.params as { missingProperty?: unknown }).missingProperty ?? '');
  }
  // instancePath is a JSON pointer to a top-level property: "/name", escaped.
  return error.instancePath.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
}

function toFieldError(field: string, error: ErrorObject): LeadFieldError {
  const known = KNOWN_FIELDS.has(field);
  switch (error.keyword) {
    case 'required':
      return { field, code: 'required', message: 'is required' };
    case 'minLength':
    case 'pattern':
      return { field, code: 'required', message: 'must not be blank' };
    case 'maxLength': {
      const limit = (error.params as { limit?: unknown }).limit;
      return { field, code: 'too_long', message: `must be at most ${String(limit)} characters` };
    }
    case 'format': {
      const format = String((error.params as { format?: unknown }).format);
      return { field, code: 'invalid', message: FORMAT_MESSAGES[format] ?? 'is not valid' };
    }
    case 'type':
      return {
        field,
        code: 'invalid',
        message: !known
          ? 'an extra field must be a string, number, boolean or null'
          : NUMBER_AS_STRING_FIELDS.has(field)
            ? 'must be a string or a number'
            : 'must be a string',
      };
    default:
      return { field, code: 'invalid', message: error.message ?? 'is not valid' };
  }
}

function rankOf(error: ErrorObject): number {
  if (error.keyword === 'minLength' || error.keyword === 'pattern') return RANK.required!;
  return RANK[error.keyword] ?? 4;
}

function shortName(name: string): string {
  const max = EXTRA_FIELD_LIMITS.maxNameLength;
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/** Bounds on unknown fields the schema cannot express (their count, name, byte size). */
function extraFieldErrors(extraNames: readonly string[], body: Readonly<Record<string, unknown>>) {
  const errors: LeadFieldError[] = [];
  const { maxFields, maxNameLength, maxValueBytes } = EXTRA_FIELD_LIMITS;
  if (extraNames.length > maxFields) {
    errors.push({
      field: shortName(extraNames[maxFields]!),
      code: 'too_many_fields',
      message: `at most ${maxFields} extra fields are kept; this submission has ${extraNames.length}`,
    });
  }
  for (const name of extraNames) {
    if (RESERVED_FIELD_NAMES.has(name)) {
      errors.push({
        field: name,
        code: 'invalid',
        message: 'is a reserved name (__proto__, constructor and prototype are); rename the field',
      });
      continue;
    }
    if (name.length > maxNameLength) {
      errors.push({
        field: shortName(name),
        code: 'too_long',
        message: `an extra field's name must be at most ${maxNameLength} characters`,
      });
      continue;
    }
    const value = body[name];
    if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > maxValueBytes) {
      errors.push({
        field: name,
        code: 'too_long',
        message: `an extra field's value must be at most ${maxValueBytes} bytes`,
      });
    }
  }
  return errors;
}

/**
 * Builds a validator. Every problem is reported (one per field, the most useful
 * one), in the order of LEAD_FIELDS and then the extra fields as sent.
 */
export function createLeadValidator(options: LeadValidatorOptions = {}): LeadValidator {
  const now = options.now ?? (() => new Date());
  // A validation reads the phone and the date of birth twice: the format check,
  // then the normalization. Each is parsed once per call: libphonenumber's "max"
  // parse is costly (bench/RESULTS.md, "Figures that code comments quoted").
  // Reset at the start of every call; validation is synchronous.
  let phoneText: string | undefined;
  let phoneParsed: ParsedPhone | null = null;
  const phoneOf = (text: string): ParsedPhone | null => {
    if (text !== phoneText) {
      phoneText = text;
      phoneParsed = parsePhone(text);
    }
    return phoneParsed;
  };
  let today: Date = now();
  let dateText: string | undefined;
  let dateIso: string | null = null;
  const pastIsoDateOf = (text: string): string | null => {
    if (text !== dateText) {
      dateText = text;
      dateIso = toPastIsoDate(text, today);
    }
    return dateIso;
  };
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv, ['email']);
  ajv.addFormat('phone', { type: 'string', validate: (text) => phoneOf(text) !== null });
  ajv.addFormat('us-state', { type: 'string', validate: isUsState });
  ajv.addFormat('us-zip', { type: 'string', validate: (text) => normalizeZip(text) !== null });
  ajv.addFormat('past-date', {
    type: 'string',
    validate: (text) => pastIsoDateOf(text) !== null,
  });
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  const validate = ajv.compile(leadSubmissionSchema);

  return (body) => {
    phoneText = undefined;
    dateText = undefined;
    today = now();
    // What the schema sees: known fields trimmed of whitespace and invisible
    // characters (so a zero-width space alone is blank), phone and zip numbers as
    // strings (a zip zero-padded), a blank external_id (an empty optional form
    // input) absent.
    // A null prototype: a field named "__proto__" stays a plain property.
    const prepared: Record<string, unknown> = Object.create(null);
    const extraNames: string[] = [];
    for (const [name, value] of Object.entries(body)) {
      if (!KNOWN_FIELDS.has(name)) {
        extraNames.push(name);
        prepared[name] = value;
      } else if (typeof value === 'string') {
        const trimmed = trimInvisible(value);
        if (name !== 'external_id' || trimmed !== '') prepared[name] = trimmed;
      } else if (typeof value === 'number' && NUMBER_AS_STRING_FIELDS.has(name)) {
        prepared[name] = !Number.isFinite(value)
          ? value
          : name === 'current_residence_zip'
            ? zipFromNumber(value)
            : String(value);
      } else {
        prepared[name] = value;
      }
    }

    const best = new Map<string, ErrorObject>();
    if (!validate(prepared)) {
      for (const error of validate.errors ?? []) {
        const field = fieldOf(error);
        const seen = best.get(field);
        if (!seen || rankOf(error) < rankOf(seen)) best.set(field, error);
      }
    }
    const errors: LeadFieldError[] = [];
    for (const field of [...LEAD_FIELD_NAMES, 'external_id']) {
      const error = best.get(field);
      if (error) errors.push(toFieldError(field, error));
    }
    const extraErrors = extraFieldErrors(extraNames, body);
    for (const name of extraNames) {
      const error = best.get(name);
      if (error) extraErrors.push(toFieldError(shortName(name), error));
    }
    errors.push(...extraErrors);
    for (const name of CANONICAL_FIELDS) {
      // Stored as sent, so the bound applies to what was sent, padding included.
      const raw = body[name];
      if (typeof raw === 'string' && raw.length > LEAD_FIELDS[name].maxLength && !best.has(name)) {
        errors.push({
          field: name,
          code: 'too_long',
          message: `must be at most ${LEAD_FIELDS[name].maxLength} characters`,
        });
      }
    }
    // PostgreSQL cannot store NUL or an unpaired UTF-16 surrogate in text or
    // jsonb: refuse them here as invalid input, rather than fail at the insert
    // (a 500 whose error would carry the lead's data).
    const reported = new Set(errors.map((e) => e.field));
    for (const [name, value] of Object.entries(body)) {
      if (!isUnstorableText(name) && !(typeof value === 'string' && isUnstorableText(value))) {
        continue;
      }
      const field = KNOWN_FIELDS.has(name) ? name : shortName(name);
      if (reported.has(field)) continue;
      reported.add(field);
      errors.push({ field, code: 'invalid', message: UNSTORABLE_TEXT_MESSAGE });
    }
    if (errors.length > 0) return { ok: false, errors };

    const text = (name: LeadFieldName) => prepared[name] as string;
    const fields = Object.fromEntries(LEAD_FIELD_NAMES.map((name) => [name, text(name)])) as Record<
      LeadFieldName,
      string
    >;
    const phone = phoneOf(fields.phone)!;
    fields.phone = phone.e164;
    fields.current_residence_state = fields.current_residence_state.toUpperCase();
    fields.current_residence_zip = normalizeZip(fields.current_residence_zip)!;
    fields.date_of_birth = pastIsoDateOf(fields.date_of_birth)!;
    const canonical = {} as Record<CanonicalFieldName, string>;
    for (const name of CANONICAL_FIELDS) {
      fields[name] = body[name] as string;
      canonical[name] = text(name).toLowerCase();
    }
    const extra: Record<string, ExtraValue> = {};
    for (const name of extraNames) {
      // defineProperty: a field named "__proto__" is kept as data, not a prototype.
      Object.defineProperty(extra, name, {
        value: body[name] as ExtraValue,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    // The seller's own phone_extension field, if any, wins: it is what they sent.
    if (phone.extension !== null && !Object.hasOwn(extra, PHONE_EXTENSION_FIELD)) {
      extra[PHONE_EXTENSION_FIELD] = phone.extension;
    }
    const externalId = typeof prepared.external_id === 'string' ? prepared.external_id : null;
    return { ok: true, lead: { fields, canonical, extra, externalId } };
  };
}

/**
 * The reasons of a rejection as they may be stored: known field names and codes
 * only, each (field, code) once, so what is kept is bounded whatever the body.
 */
export function rejectionReasons(errors: readonly LeadFieldError[]): StoredRejectionReason[] {
  const seen = new Set<string>();
  const reasons: StoredRejectionReason[] = [];
  for (const error of errors) {
    const reason: StoredRejectionReason = KNOWN_FIELDS.has(error.field)
      ? { field: error.field, code: error.code }
      : {
          field: null,
          code: error.code === 'too_many_fields' ? 'too_many_fields' : 'unknown_field',
        };
    const key = `${reason.field ?? ''} ${reason.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    reasons.push(reason);
  }
  return reasons;
}
