import type { PlaybookStep } from '@leadhook/contracts';

/**
 * A playbook's stored steps (Playbook.steps, validated by the API against
 * playbookStepSchema). Read again here because the column is plain JSON: a row
 * written some other way must fail loudly, not text a lead "undefined".
 */
export function parseSteps(json: unknown): PlaybookStep[] {
  if (!Array.isArray(json)) throw new Error('playbook steps are not a list');
  return json.map((raw: unknown, index): PlaybookStep => {
    if (typeof raw !== 'object' || raw === null) throw new Error(`step ${index} is not an object`);
    const type: unknown = Reflect.get(raw, 'type');
    const delay: unknown = Reflect.get(raw, 'delay_seconds');
    const template: unknown = Reflect.get(raw, 'template');
    if (type !== 'sms' && type !== 'call') throw new Error(`step ${index} has no valid type`);
    if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0) {
      throw new Error(`step ${index} has no valid delay_seconds`);
    }
    if (template !== undefined && typeof template !== 'string') {
      throw new Error(`step ${index} has a template that is not text`);
    }
    if (type === 'sms') {
      if (typeof template !== 'string') throw new Error(`sms step ${index} has no template`);
      return { type, delay_seconds: delay, template };
    }
    return template === undefined
      ? { type, delay_seconds: delay }
      : { type, delay_seconds: delay, template };
  });
}
