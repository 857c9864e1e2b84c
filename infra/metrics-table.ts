import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The "Metrics" table of docs/operations.md, parsed: what infra/metrics-docs.test.ts
 * checks against the code's constants and e2e/metrics.test.ts against the running
 * processes.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const PROCESSES = ['intake', 'api', 'playbook-worker', 'webhook-worker'] as const;
export type Process = (typeof PROCESSES)[number];

/** label → its values, or null for an open set (a label without a colon). */
export type Labels = Record<string, readonly string[] | null>;

export interface DocumentedMetric {
  name: string;
  /** counter, gauge or histogram. */
  type: string;
  labels: Labels;
  from: Process[];
}

function isProcess(value: string): value is Process {
  return (PROCESSES as readonly string[]).includes(value);
}

/**
 * The labels cell: `label`; or `label`: `value`, `value` (notes); several
 * separated by ";". Notes hold no backticks, so every backticked word after a
 * label's colon is one of its values.
 */
function parseLabels(cell: string, name: string): Labels {
  const labels: Labels = {};
  if (cell === '—') return labels;
  for (const segment of cell.split(';')) {
    const [label, ...values] = [...segment.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    if (!label) throw new Error(`docs/operations.md Metrics: no label in "${segment}" of ${name}`);
    const closed = segment.indexOf(':', segment.indexOf(`\`${label}\``)) >= 0;
    labels[label] = closed ? [...new Set(values)].sort() : null;
  }
  return labels;
}

export function documentedMetrics(): DocumentedMetric[] {
  const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const section = operations.split(/^## Metrics$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\| `leadhook_/.test(line))
    .map((line) => {
      const [cellName = '', type = '', labels = '', from = ''] = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      const name = cellName.replace(/`/g, '');
      const processes = from.split(',').flatMap((f): Process[] => {
        const t = f.trim();
        if (t === 'all') return [...PROCESSES];
        if (t === 'workers') return ['playbook-worker', 'webhook-worker'];
        if (isProcess(t)) return [t];
        throw new Error(`docs/operations.md Metrics: unknown process "${t}" for ${name}`);
      });
      return {
        name,
        type: (type.split(',')[0] ?? '').trim(),
        labels: parseLabels(labels, name),
        from: processes,
      };
    });
}
