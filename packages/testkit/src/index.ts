/**
 * What every service's tests and the end-to-end tests share: the test stores,
 * factories for the rows, a valid lead body, a local subscriber server, waiting
 * and ports, queue cleanup, the OpenAPI response check, and the browser tests'
 * Chromium, accessibility check and screenshots.
 */
export {
  CHROMIUM_PATH,
  expectAccessible,
  launchBrowser,
  pageErrors,
  SCREENSHOTS_DIR,
  screenshot,
  useBrowser,
} from './browser.js';
export {
  type ActivitySpec,
  type AttemptSpec,
  aDelivery,
  aLead,
  aLeadOwner,
  anAccount,
  anActivity,
  anEnrollment,
  aPhone,
  aPlaybook,
  aSource,
  aSubscription,
  type DeliverySpec,
  type LeadColumns,
  type LeadOwner,
  type SourceSpec,
  type StepSpec,
  type SubscriptionSpec,
  type TestSourceRow,
} from './factories.js';
export {
  FakeTwilio,
  type FakeTwilioAnswer,
  type FakeTwilioCallback,
  type FakeTwilioFate,
  type FakeTwilioOptions,
  type FakeTwilioRecord,
  type FakeTwilioRequest,
  type FakeTwilioResource,
} from './fake-twilio.js';
export {
  bodyWith,
  type FieldPath,
  type HostileBody,
  type HostileValue,
  hostileBodies,
  hostilePaths,
  hostileString,
  hostileValue,
  type SchemaFields,
  schemaFields,
} from './hostile-strings.js';
export { intakeOpenApi } from './intake-openapi.js';
export { type FailedJob, jobsFailed } from './jobs.js';
export { type LeadFields, randomPhone, validLead } from './lead-body.js';
export {
  documentPart,
  type ObservedResponse,
  type ResponseChecker,
  type ResponseCheckerOptions,
  responseChecker,
} from './openapi-responses.js';
export { type OutboxRows, withOutboxRows } from './outbox.js';
export { PrivateRedis } from './private-redis.js';
export { forgetRedis } from './redis.js';
export {
  addPastHistoryPartitions,
  createTestDatabase,
  createTestStores,
  rowsRead,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestStores,
  workerEnv,
} from './settings.js';
export { type Answer, type ReceivedRequest, Subscriber } from './subscriber.js';
export { SMS_SMS_CALL_UNANSWERED } from './timelines.js';
export {
  postTwilioCallback,
  type TwilioCallback,
  type TwilioCallbackAnswer,
  type TwilioCallbackParams,
  twilioSignature,
} from './twilio-callback.js';
export { useHarness, useTestDatabase } from './use-harness.js';
export { closedPort, freePort, type WaitOptions, waitFor } from './wait.js';
export { type StartedWorker, type TestWorker, useTestWorkers } from './workers.js';
