import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The intake endpoint's part of the OpenAPI document the api serves (its path and
 * the schemas it reaches, made by documentPart), kept here so that intake's tests
 * check their answers against it without running or importing the api. The api's
 * tests fail when it differs from the served document, and rewrite it with
 * UPDATE_INTAKE_OPENAPI=1 (services/api/src/testing/openapi-responses.test.ts).
 */
export const INTAKE_OPENAPI_FILE = fileURLToPath(
  new URL('../intake-openapi.json', import.meta.url),
);

export function intakeOpenApi(): { document: object; path: string } {
  const document = JSON.parse(readFileSync(INTAKE_OPENAPI_FILE, 'utf8')) as {
    paths: Record<string, unknown>;
  };
  const [path, ...others] = Object.keys(document.paths);
  if (!path || others.length > 0) throw new Error(`${INTAKE_OPENAPI_FILE}: not one path`);
  return { document, path };
}
