import { readFile } from 'node:fs/promises';
import { buildOpenApiDocument } from '../../api/src/openapi.js';
import { API_TYPES_PATH, apiTypesText, TYPES_INTAKE_BASE_URL } from '../scripts/api-types.mjs';

/** openapi-typescript loads the TypeScript compiler: slow on a loaded machine. */
const GENERATE_TIMEOUT_MS = 120_000;

const document = () => buildOpenApiDocument({ intakeBaseUrl: TYPES_INTAKE_BASE_URL });

describe("the dashboard's API types (src/generated/api.d.ts)", () => {
  it(
    'are what the OpenAPI document the api serves gives today',
    async () => {
      const expected = await apiTypesText(document());
      const committed = await readFile(API_TYPES_PATH, 'utf8');
      if (committed !== expected) {
        throw new Error(
          'services/dashboard/src/generated/api.d.ts no longer matches the OpenAPI document: run `pnpm dashboard:api-types` and commit the result',
        );
      }
    },
    GENERATE_TIMEOUT_MS,
  );

  it(
    'change when the document does (the comparison can fail)',
    async () => {
      const changed = document();
      changed.components.schemas = {
        ...changed.components.schemas,
        DriftProbe: { type: 'object', properties: { probe: { type: 'string' } } },
      } as typeof changed.components.schemas;
      const text = await apiTypesText(changed);
      expect(text).toContain('DriftProbe');
      expect(text).not.toBe(await readFile(API_TYPES_PATH, 'utf8'));
    },
    GENERATE_TIMEOUT_MS,
  );
});
