import {
  accountSchema,
  accountUpdateSchema,
  activityCatalogSchema,
  activityCreateSchema,
  activityReportSchema,
  activitySchema,
  apiKeyRotationSchema,
  deliveryListSchema,
  deliverySchema,
  errorEnvelopeSchema,
  intakeAcceptedSchema,
  intakeDuplicateSchema,
  intakeRejectedSchema,
  integrationInstructionsSchema,
  leadDetailSchema,
  leadListSchema,
  leadSchema,
  leadSubmissionSchema,
  listEnvelopeSchema,
  marketingSourceCreateSchema,
  marketingSourceSchema,
  marketingSourceUpdateSchema,
  playbookCreateSchema,
  playbookSchema,
  playbookUpdateSchema,
  sourceStatsSchema,
  subscriptionCreateSchema,
  subscriptionListSchema,
  subscriptionRecoverResultSchema,
  subscriptionRecoverSchema,
  subscriptionSchema,
  subscriptionTestResultSchema,
  subscriptionUpdateSchema,
  subscriptionWithSecretSchema,
} from '@leadhook/contracts';

/**
 * The OpenAPI document's vocabulary: its component schemas, the very objects
 * ajv validates with (packages/contracts/src/api), and the shape of one
 * operation (openapi.operations.ts lists them; openapi.ts builds the document).
 */

const { $id: _leadSubmissionId, ...leadSubmission } = leadSubmissionSchema;

/** What GET /openapi.json answers: this very document (its shape is checked by the OpenAPI 3.1 schema in openapi.test.ts). */
const openApiDocumentSchema = {
  title: 'OpenApiDocument',
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' } },
} as const;

export const SCHEMAS = {
  OpenApiDocument: openApiDocumentSchema,
  Error: errorEnvelopeSchema,
  Account: accountSchema,
  AccountUpdate: accountUpdateSchema,
  ApiKeyRotation: apiKeyRotationSchema,
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
  Delivery: deliverySchema,
  DeliveryList: deliveryListSchema,
  // The id is the intake validator's; inside components the name is the reference.
  LeadSubmission: leadSubmission,
  IntakeAccepted: intakeAcceptedSchema,
  IntakeDuplicate: intakeDuplicateSchema,
  IntakeRejected: intakeRejectedSchema,
} as const;

export type SchemaName = keyof typeof SCHEMAS;

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Operation {
  method: Method;
  /** OpenAPI path under the API server (`/playbooks/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  /** Longer prose, when the summary is not enough (e.g. a response shape's rules). */
  description?: string;
  tag:
    | 'Account'
    | 'Playbooks'
    | 'Marketing sources'
    | 'Leads'
    | 'Activities'
    | 'Subscriptions'
    | 'Deliveries'
    | 'Meta';
  body?: SchemaName;
  /** Success status and its schema (none for 204). */
  success: { status: 200 | 201 | 204; schema?: SchemaName; description: string };
  list?: true;
  /** Query filters besides limit and cursor, by name. */
  filters?: Record<string, { description: string }>;
  public?: true;
  /** Extra error statuses besides 401 (and 404 for paths with {id}, 400/422 for bodies). */
  conflicts?: { status: 409; description: string };
  /** The 404 description of an operation whose path has no {id} (a filter naming an object). */
  notFound?: string;
  /**
   * The 422 description, when the operation has checks beyond the body schema; it
   * also documents a 422 for an operation without a body (query checks).
   */
  invalid?: string;
}
