import { TEMPLATE_PLACEHOLDER_PATTERN } from '@leadhook/contracts';

/** What a template can read of a lead: its stored fields and the seller's external_id. */
export interface TemplateLead {
  /** Lead.fields: every validated submission field as stored. */
  fields: unknown;
  externalId: string | null;
}

/**
 * Renders a step's `{{field}}` placeholders from the lead. A field the lead lacks,
 * a name that is not a lead field, or a value that is not a string or number
 * renders empty: a lead must never receive "Hi undefined". The API refuses
 * unknown placeholders when a playbook is saved; this is the second line.
 */
export function renderTemplate(template: string, lead: TemplateLead): string {
  const fields: Record<string, unknown> =
    typeof lead.fields === 'object' && lead.fields !== null && !Array.isArray(lead.fields)
      ? (lead.fields as Record<string, unknown>)
      : {};
  // A fresh RegExp: the shared pattern is global, and its lastIndex is state.
  const pattern = new RegExp(TEMPLATE_PLACEHOLDER_PATTERN.source, 'g');
  return template.replace(pattern, (_match, name: string) => {
    if (name === 'external_id') return lead.externalId ?? '';
    if (!Object.hasOwn(fields, name)) return '';
    const value = fields[name];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return '';
  });
}
