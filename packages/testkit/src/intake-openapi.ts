import { INTAKE_OPENAPI_PATH, intakePathItem, OPENAPI_SCHEMAS } from '@leadhook/contracts';
import { documentPart } from './openapi-responses.js';

/**
 * The intake endpoint's part of the OpenAPI document, built from the same
 * @leadhook/contracts pieces the api's document is made of (its path item and
 * the component schemas), so intake's tests check their answers against it
 * without running or importing the api. The api's tests check that it equals the
 * intake part of the served document.
 */
export function intakeOpenApi(intakeBaseUrl = 'https://intake.example.test'): {
  document: object;
  path: string;
} {
  const whole = {
    openapi: '3.1.0',
    paths: { [INTAKE_OPENAPI_PATH]: intakePathItem(intakeBaseUrl) },
    components: { schemas: OPENAPI_SCHEMAS },
  };
  return { document: documentPart(whole, [INTAKE_OPENAPI_PATH]), path: INTAKE_OPENAPI_PATH };
}
