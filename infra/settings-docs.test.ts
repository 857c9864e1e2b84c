import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTING_DEFAULTS, SETTING_NAMES } from '@leadhook/config';

// The settings table of docs/operations.md is the operator's list: it names every
// setting packages/config reads, with its default, and nothing else.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
const section = operations.split(/^## Settings$/m)[1]?.split(/^## /m)[0] ?? '';
const rows = section
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [names = '', , defaults = ''] = line.split(/(?<!\\)\|/).slice(1, -1);
    return {
      names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] ?? ''),
      defaults: [...defaults.matchAll(/`([^`]*)`/g)].map((m) => m[1] ?? ''),
    };
  });

describe('the settings table of docs/operations.md', () => {
  it('lists every setting, and only settings', () => {
    const listed = rows.flatMap((r) => r.names);
    expect([...listed].sort()).toEqual([...SETTING_NAMES].sort());
  });

  it.each(rows.filter((r) => r.names.length === r.defaults.length))(
    'gives the defaults of $names as packages/config does',
    ({ names, defaults }) => {
      const known: Record<string, string> = SETTING_DEFAULTS;
      expect(defaults).toEqual(names.map((n) => known[n]));
    },
  );
});
