export {
  IDEMPOTENCY_KEY_PARAMETER,
  INTAKE_OPENAPI_PATH,
  intakePathItem,
  intakeResponseObjects,
} from './intake.js';
export type { HttpMethod, OpenApiOperation, OpenApiTag, QuerySchema } from './operation.js';
export {
  IDEMPOTENT_REPLAYED_HEADER,
  openApiPaths,
  operationObject,
  pathParameters,
  RETRY_AFTER_HEADER,
  schemaRef,
} from './operation.js';
export { componentName, OPENAPI_SCHEMAS, type OpenApiSchemaName } from './schemas.js';
