import {
  accountSchema,
  accountUpdateSchema,
  activityCatalogSchema,
  activityCreateSchema,
  activityReportSchema,
  activitySchema,
  activityWebhookSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeyRotationSchema,
  apiKeySchema,
  apiKeyWithSecretSchema,
  deliveryListSchema,
  deliverySchema,
  errorEnvelopeSchema,
  hookCreateSchema,
  hookListSchema,
  hookSamplesSchema,
  hookSchema,
  hookWithSecretSchema,
  intakeAcceptedSchema,
  intakeDuplicateSchema,
  intakeRejectedSchema,
  integrationInstructionsSchema,
  leadDetailSchema,
  leadListSchema,
  leadSchema,
  listEnvelopeSchema,
  marketingSourceCreateSchema,
  marketingSourceSchema,
  marketingSourceUpdateSchema,
  playbookCreateSchema,
  playbookSchema,
  playbookUpdateSchema,
  sourceStatsListSchema,
  sourceStatsSchema,
  subscriptionCreateSchema,
  subscriptionListSchema,
  subscriptionRecoverResultSchema,
  subscriptionRecoverSchema,
  subscriptionSchema,
  subscriptionTestResultSchema,
  subscriptionUpdateSchema,
  subscriptionWithSecretSchema,
  suppressionCreateSchema,
  suppressionImportResultSchema,
  suppressionImportSchema,
  suppressionListSchema,
  suppressionRemovalListSchema,
  suppressionRemovalSchema,
  suppressionSchema,
} from '../api/index.js';
import { leadSubmissionSchema } from '../lead.schema.js';

/**
 * The OpenAPI document's component schemas: the very objects ajv validates with
 * (../api), so a field added there appears in the document with no second edit.
 */

const { $id: _leadSubmissionId, ...leadSubmission } = leadSubmissionSchema;

/** What GET /openapi.json answers: this very document (the api's tests check its shape against the OpenAPI 3.1 schema). */
const openApiDocumentSchema = {
  title: 'OpenApiDocument',
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' } },
} as const;

export const OPENAPI_SCHEMAS = {
  OpenApiDocument: openApiDocumentSchema,
  Error: errorEnvelopeSchema,
  Account: accountSchema,
  AccountUpdate: accountUpdateSchema,
  ApiKeyRotation: apiKeyRotationSchema,
  ApiKey: apiKeySchema,
  ApiKeyCreate: apiKeyCreateSchema,
  ApiKeyWithSecret: apiKeyWithSecretSchema,
  ApiKeyList: apiKeyListSchema,
  Playbook: playbookSchema,
  PlaybookCreate: playbookCreateSchema,
  PlaybookUpdate: playbookUpdateSchema,
  PlaybookList: listEnvelopeSchema('PlaybookList', playbookSchema),
  MarketingSource: marketingSourceSchema,
  MarketingSourceCreate: marketingSourceCreateSchema,
  MarketingSourceUpdate: marketingSourceUpdateSchema,
  MarketingSourceList: listEnvelopeSchema('MarketingSourceList', marketingSourceSchema),
  IntegrationInstructions: integrationInstructionsSchema,
  SourceStats: sourceStatsSchema,
  SourceStatsList: sourceStatsListSchema,
  Lead: leadSchema,
  LeadDetail: leadDetailSchema,
  LeadList: leadListSchema,
  ActivityCatalog: activityCatalogSchema,
  Activity: activitySchema,
  ActivityCreate: activityCreateSchema,
  ActivityReport: activityReportSchema,
  Subscription: subscriptionSchema,
  SubscriptionWithSecret: subscriptionWithSecretSchema,
  SubscriptionCreate: subscriptionCreateSchema,
  SubscriptionUpdate: subscriptionUpdateSchema,
  SubscriptionList: subscriptionListSchema,
  SubscriptionTestResult: subscriptionTestResultSchema,
  SubscriptionRecover: subscriptionRecoverSchema,
  SubscriptionRecoverResult: subscriptionRecoverResultSchema,
  Suppression: suppressionSchema,
  SuppressionCreate: suppressionCreateSchema,
  SuppressionList: suppressionListSchema,
  SuppressionImport: suppressionImportSchema,
  SuppressionImportResult: suppressionImportResultSchema,
  SuppressionRemoval: suppressionRemovalSchema,
  SuppressionRemovalList: suppressionRemovalListSchema,
  Hook: hookSchema,
  HookCreate: hookCreateSchema,
  HookWithSecret: hookWithSecretSchema,
  HookList: hookListSchema,
  HookSamples: hookSamplesSchema,
  ActivityWebhook: activityWebhookSchema,
  Delivery: deliverySchema,
  DeliveryList: deliveryListSchema,
  // The id is the intake validator's; inside components the name is the reference.
  LeadSubmission: leadSubmission,
  IntakeAccepted: intakeAcceptedSchema,
  IntakeDuplicate: intakeDuplicateSchema,
  IntakeRejected: intakeRejectedSchema,
} as const;

export type OpenApiSchemaName = keyof typeof OPENAPI_SCHEMAS;

/** The component name of `schema`, one of OPENAPI_SCHEMAS' very objects. */
export function componentName(schema: unknown): OpenApiSchemaName {
  for (const [name, component] of Object.entries(OPENAPI_SCHEMAS)) {
    if (component === schema) return name as OpenApiSchemaName;
  }
  throw new Error('the schema is not a component of the OpenAPI document (OPENAPI_SCHEMAS)');
}
