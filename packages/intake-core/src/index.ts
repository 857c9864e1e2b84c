/**
 * The intake's core (docs/intake.md): the domain, its SQL, its answer bodies and
 * its lead counter, shared by the intake service (a lead posted to a post URL)
 * and the api (POST /marketing_sources/{id}/leads), so a lead takes one path
 * whichever way it arrives. Transport (parsing, status codes) is each caller's.
 */
export { LEAD_RESULTS, type LeadResult, leadCounter } from './intake.metrics.js';
export {
  acceptedBody,
  duplicateBody,
  type ErrorBody,
  type ErrorItem,
  errorBody,
  idempotencyConflictBody,
  logReasons,
  NOT_FOUND_BODY,
  rejectedBody,
  retryableBody,
  type SuccessBody,
} from './intake.responses.js';
export {
  bodyHash,
  INVALID_IDEMPOTENCY_KEY_MESSAGE,
  type IntakeResult,
  IntakeService,
  type IntakeServiceDeps,
  isIdempotencyKey,
  responseOf,
  type SourceByIdLookup,
  type SourceLookup,
  type Submission,
  type SubmitInput,
  storedResponseOf,
} from './intake.service.js';
export {
  type AcceptInput,
  type AcceptOutcome,
  acceptBatch,
  acceptOrDuplicate,
  advisoryKey,
  beginLocked,
  findActiveSources,
  findIdempotentResponse,
  findSourceById,
  IDEMPOTENCY_TTL_HOURS,
  type IntakeSource,
  idempotencyKeyDigest,
  insertRejected,
  type RequestEvidence,
  type SourceKey,
  type StoredResponse,
  storeIdempotentResponse,
} from './intake.store.js';
