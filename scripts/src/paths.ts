import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root (the same from src/ and dist/). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The services `pnpm start` runs, each as its own process (docs/operations.md, "Processes and ports"). */
export const SERVICES = ['intake', 'api', 'playbook-worker', 'webhook-worker'] as const;

export function serviceMain(name: string): string {
  return join(ROOT, 'services', name, 'dist', 'main.js');
}
