import { renderTemplate } from './template.js';

const lead = {
  fields: { first_name: 'Ana', last_name: 'Ruiz', current_residence_zip: '94110', count: 3 },
  externalId: 'ext-42',
};

describe('renderTemplate', () => {
  it.each([
    ['Hi {{first_name}}!', 'Hi Ana!'],
    ['Hi {{ first_name }} {{last_name}}', 'Hi Ana Ruiz'],
    ['{{first_name}}{{first_name}}', 'AnaAna'],
    ['ref {{external_id}}', 'ref ext-42'],
    ['zip {{current_residence_zip}}', 'zip 94110'],
    ['a number {{count}}', 'a number 3'],
    ['missing {{email}}.', 'missing .'],
    ['unknown {{nope}}.', 'unknown .'],
    ['prototype {{constructor}} {{toString}}', 'prototype  '],
    ['empty {{}}.', 'empty .'],
    ['no placeholders', 'no placeholders'],
    ['single {brace}', 'single {brace}'],
  ])('%j renders %j', (template, expected) => {
    expect(renderTemplate(template, lead)).toBe(expected);
  });

  it('renders external_id empty when the seller sent none', () => {
    expect(renderTemplate('[{{external_id}}]', { fields: {}, externalId: null })).toBe('[]');
  });

  it('renders empty from fields that are not an object', () => {
    expect(renderTemplate('[{{first_name}}]', { fields: null, externalId: null })).toBe('[]');
    expect(renderTemplate('[{{first_name}}]', { fields: ['Ana'], externalId: null })).toBe('[]');
  });

  it('renders a nested or boolean value empty, never "[object Object]" or "true"', () => {
    const odd = { fields: { first_name: { a: 1 }, last_name: true }, externalId: null };
    expect(renderTemplate('{{first_name}}|{{last_name}}', odd)).toBe('|');
  });
});
