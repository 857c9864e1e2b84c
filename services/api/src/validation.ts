import {
  type FromSchema,
  hasStrayBraces,
  type JSONSchema,
  jsonTextProblem,
  MAX_JSON_DEPTH,
  TEMPLATE_PLACEHOLDERS,
  UNSTORABLE_TEXT_MESSAGE,
  unknownPlaceholders,
} from '@leadhook/contracts';
import { Ajv, type ErrorObject, type Schema, type SchemaValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** One problem of a request, as the error envelope lists it. */
export interface ErrorDetail {
  field: string | null;
  code: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

/**
 * `x-lead-template` (packages/contracts playbook.schema.ts): a template whose
 * `{{placeholders}}` must be lead fields. A keyword rather than a check after
 * validation, so an unknown placeholder is listed with every other problem.
 */
const leadTemplate: SchemaValidateFunction = (enabled: boolean, data: unknown) => {
  if (!enabled || typeof data !== 'string') return true;
  const unknown = unknownPlaceholders(data);
  leadTemplate.errors = unknown.map((placeholder) => ({
    keyword: 'x-lead-template',
    message: `unknown placeholder {{${placeholder}}}`,
    params: { placeholder },
  }));
  if (hasStrayBraces(data)) {
    leadTemplate.errors.push({
      keyword: 'x-lead-template',
      message: 'unbalanced braces',
      params: { stray: true },
    });
  }
  return leadTemplate.errors.length === 0;
};

function newAjv(coerceTypes: boolean): Ajv {
  // allErrors: a 422 lists every problem, not the first (docs/api.md, "Errors").
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, coerceTypes, useDefaults: true });
  addFormats.default(ajv, ['uri', 'date-time', 'email']);
  ajv.addKeyword({
    keyword: 'x-lead-template',
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: leadTemplate,
  });
  return ajv;
}

const bodyAjv = newAjv(false);
// Query strings are text: "?limit=5" must validate as the integer it means.
const queryAjv = newAjv(true);

/** Fields the server sets: sending one is refused with its own code, as Stripe does. */
const READ_ONLY_FIELDS = new Set([
  'id',
  'post_url',
  'created_at',
  'updated_at',
  'api_key_prefix',
  'secret',
  'disabled_reason',
  'disabled_code',
  'disabled_at',
  'failing_since',
  'previous_secret_expires_at',
  'created_via',
  'api_key',
  'prefix',
  'last_used_at',
]);

/** `/steps/2/template` + `name` → `steps[2].template.name`. */
function fieldPath(instancePath: string, child?: string): string | null {
  const segments = instancePath.split('/').slice(1);
  if (child !== undefined) segments.push(child);
  let path = '';
  for (const raw of segments) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path === '' ? null : path;
}

function param(error: ErrorObject, name: string): unknown {
  const params: Record<string, unknown> = error.params;
  return params[name];
}

function detailOf(error: ErrorObject): ErrorDetail | null {
  const at = fieldPath(error.instancePath);
  const label = at ?? 'The body';
  switch (error.keyword) {
    case 'if':
      // The failing `then` branch reports the actual problem (e.g. required template).
      return null;
    case 'required': {
      const field = fieldPath(error.instancePath, String(param(error, 'missingProperty')));
      return { field, code: 'required', message: `${field} is required.` };
    }
    case 'additionalProperties': {
      const name = String(param(error, 'additionalProperty'));
      const field = fieldPath(error.instancePath, name);
      return at === null && READ_ONLY_FIELDS.has(name)
        ? { field, code: 'read_only', message: `${field} is read-only.` }
        : { field, code: 'unknown_field', message: `${field} is not a known field.` };
    }
    case 'maxLength':
    case 'maxItems':
      return {
        field: at,
        code: 'too_long',
        message: `${label} is too long (at most ${String(param(error, 'limit'))}).`,
      };
    case 'minLength':
      return { field: at, code: 'invalid', message: `${label} must not be blank.` };
    case 'pattern':
      return param(error, 'pattern') === '\\S'
        ? { field: at, code: 'invalid', message: `${label} must not be blank.` }
        : { field: at, code: 'invalid', message: `${label} is not in the expected format.` };
    case 'enum': {
      const allowed = param(error, 'allowedValues');
      const list = Array.isArray(allowed) ? allowed.map(String).join(', ') : '';
      return { field: at, code: 'invalid', message: `${label} must be one of: ${list}.` };
    }
    case 'x-lead-template': {
      const step = /^\/steps\/(\d+)\//.exec(error.instancePath)?.[1];
      const where = step === undefined ? '' : ` of step ${step}`;
      if (param(error, 'stray') === true) {
        return {
          field: at,
          code: 'invalid_template',
          message: `The template${where} has a {{ or }} that does not close a placeholder; write placeholders as {{first_name}}.`,
        };
      }
      return {
        field: at,
        code: 'unknown_placeholder',
        message: `Unknown placeholder {{${String(param(error, 'placeholder'))}}} in the template${where}; known: ${TEMPLATE_PLACEHOLDERS.join(', ')}.`,
      };
    }
    default:
      return { field: at, code: 'invalid', message: `${label} ${error.message ?? 'is invalid'}.` };
  }
}

/** ajv's errors as the envelope's details: one per (field, code, message). */
export function detailsOf(errors: readonly ErrorObject[]): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const detail = detailOf(error);
    if (!detail) continue;
    // A blank string fails minLength and pattern: one detail is enough.
    const key = `${detail.field}\u0000${detail.code}\u0000${detail.code === 'invalid' ? '' : detail.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
  }
  return details;
}

/** `["steps", 2, "template"]` → `steps[2].template`; null for the root. */
function pathText(path: readonly (string | number)[]): string | null {
  let text = '';
  for (const segment of path) {
    text += typeof segment === 'number' ? `[${segment}]` : text === '' ? segment : `.${segment}`;
  }
  return text === '' ? null : text;
}

/**
 * What no schema checks, for every body and query (docs/api.md, "Errors"): text
 * PostgreSQL cannot store, and nesting deeper than MAX_JSON_DEPTH. Checked before
 * ajv and before anything else walks the value.
 */
function textProblem(data: unknown): ErrorDetail | null {
  const problem = jsonTextProblem(data);
  if (problem === null) return null;
  const field = pathText(problem.path);
  const label = field ?? 'The body';
  return problem.kind === 'too_deep'
    ? {
        field,
        code: 'too_deep',
        message: `${label} is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays).`,
      }
    : { field, code: 'invalid', message: `${label} ${UNSTORABLE_TEXT_MESSAGE}.` };
}

function validatorOf<T>(
  ajv: Ajv,
  schema: Schema,
  checkText = true,
): (data: unknown) => Validated<T> {
  const validate = ajv.compile<T>(schema);
  return (data) => {
    const problem = checkText ? textProblem(data) : null;
    if (problem !== null) return { ok: false, details: [problem] };
    return validate(data)
      ? { ok: true, value: data }
      : { ok: false, details: detailsOf(validate.errors ?? []) };
  };
}

/**
 * A request body validator compiled from one of the contracts' schemas; its
 * value's type is derived from the same schema (FromSchema).
 */
export function bodyValidator<const S extends JSONSchema>(
  schema: S,
): (data: unknown) => Validated<FromSchema<S>> {
  return validatorOf<FromSchema<S>>(bodyAjv, schema);
}

/**
 * A check of what was read back from the database against the schema an answer
 * documents. Without the checks of request text: stored text is storable, and
 * data stored before the nesting bound existed must still be readable.
 */
export function storedValidator<const S extends JSONSchema>(
  schema: S,
): (data: unknown) => Validated<FromSchema<S>> {
  return validatorOf<FromSchema<S>>(bodyAjv, schema, false);
}

/**
 * A query validator: values are coerced from text and defaults applied, on a copy
 * (Express 5 recomputes req.query on each read).
 */
export function queryValidator<const S extends JSONSchema>(
  schema: S,
): (query: unknown) => Validated<FromSchema<S>> {
  const validate = validatorOf<FromSchema<S>>(queryAjv, schema);
  return (query: unknown) =>
    validate(typeof query === 'object' && query !== null ? { ...query } : {});
}
