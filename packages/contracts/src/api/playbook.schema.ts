import type { FromSchema } from 'json-schema-to-ts';
import { LEAD_FIELD_NAMES } from '../lead.schema.js';
import { namedResourceSchema, nameSchema } from './common.schema.js';

/**
 * What a template's `{{placeholder}}` may name: the 16 submission fields and
 * external_id, exactly what the playbook worker's renderer fills in (extra fields
 * are not). The template's description lists these, and validation accepts these
 * and nothing else.
 */
export const TEMPLATE_PLACEHOLDERS: readonly string[] = [...LEAD_FIELD_NAMES, 'external_id'];

const TEMPLATE_DESCRIPTION = `The SMS text (required for sms) or the call script (optional for call). \`{{name}}\` inserts the lead's value (spaces inside the braces are allowed). The names are: ${TEMPLATE_PLACEHOLDERS.map((name) => `\`${name}\``).join(', ')}. Any other name, an extra field the seller sent included, is refused with 422 \`unknown_placeholder\`, and a \`{{\` or \`}}\` that closes no placeholder with 422 \`invalid_template\`. A value the lead lacks (external_id when the seller sent none) renders empty. A play's first SMS ends with \`Reply STOP to opt out.\` (after a space) unless its text already contains \`STOP\` in capitals: carriers require the first message to a recipient to say how to opt out; count those 23 characters in a first SMS near a carrier's length limit (Twilio's is 1600).`;

/**
 * One step of a playbook (docs/api.md, "Playbooks"). A template is required for sms and optional
 * for a call (its script). `x-lead-template` marks a string whose `{{placeholders}}`
 * must be lead fields; the api's ajv instance implements it as a keyword, so an
 * unknown placeholder is reported with every other problem of the body.
 */
export const playbookStepSchema = {
  title: 'PlaybookStep',
  type: 'object',
  required: ['type', 'delay_seconds'],
  properties: {
    type: { type: 'string', enum: ['sms', 'call'] },
    delay_seconds: {
      type: 'integer',
      minimum: 0,
      maximum: 31_536_000,
      description: 'Seconds after the previous step (after enrollment for the first step).',
      examples: [0, 300],
    },
    template: {
      type: 'string',
      minLength: 1,
      maxLength: 5000,
      pattern: '\\S',
      'x-lead-template': true,
      description: TEMPLATE_DESCRIPTION,
      examples: ['Hi {{first_name}}, thanks for your quote request!'],
    },
  },
  additionalProperties: false,
  if: { type: 'object', properties: { type: { const: 'sms' } }, required: ['type'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; this object is never awaited.
  then: { required: ['template'] },
} as const;

const stepsSchema = {
  type: 'array',
  maxItems: 100,
  items: playbookStepSchema,
  description: 'Ordered steps; an empty list is valid (leads are worked by outside activities).',
} as const;

/** `POST /playbooks`. */
export const playbookCreateSchema = {
  title: 'PlaybookCreate',
  type: 'object',
  required: ['name'],
  properties: { name: nameSchema, steps: stepsSchema },
  additionalProperties: false,
} as const;

/** `PATCH /playbooks/{id}`: the given fields replace the stored ones (steps as a whole). */
export const playbookUpdateSchema = {
  title: 'PlaybookUpdate',
  type: 'object',
  properties: { name: nameSchema, steps: stepsSchema },
  additionalProperties: false,
} as const;

export const playbookSchema = namedResourceSchema('Playbook', {
  steps: stepsSchema,
});

export type PlaybookStep = FromSchema<typeof playbookStepSchema>;
export type PlaybookCreate = FromSchema<typeof playbookCreateSchema>;
export type PlaybookUpdate = FromSchema<typeof playbookUpdateSchema>;
export type Playbook = FromSchema<typeof playbookSchema>;

/** `{{ name }}` occurrences; whitespace inside the braces is allowed. */
export const TEMPLATE_PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * True when braces are left over once every `{{name}}` is taken out ("Hi
 * {{first_name", "{first_name}}"): the SMS would go out with literal braces.
 */
export function hasStrayBraces(template: string): boolean {
  const rest = template.replace(TEMPLATE_PLACEHOLDER_PATTERN, '');
  return rest.includes('{{') || rest.includes('}}');
}

/** The placeholders of a template that are not lead fields, in order of appearance. */
export function unknownPlaceholders(template: string): string[] {
  const unknown: string[] = [];
  for (const match of template.matchAll(TEMPLATE_PLACEHOLDER_PATTERN)) {
    const name = match[1] ?? '';
    if (!TEMPLATE_PLACEHOLDERS.includes(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}
