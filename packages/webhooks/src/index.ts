export type { AttemptResult, DeliverOptions } from './deliver.js';
export { deliver, parseRetryAfter, RESPONSE_BODY_LIMIT, USER_AGENT } from './deliver.js';
export type { BuiltPayload, PayloadRows } from './payload.js';
export { payloadOf } from './payload.js';
export type { SignInput, VerifyInput, VerifyResult } from './signature.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  generateSecret,
  SECRET_PREFIX,
  sign,
  verify,
} from './signature.js';
export type { Resolve } from './target-guard.js';
export {
  guardedLookup,
  isPublicAddress,
  refuseLiteral,
  systemResolve,
  TARGET_REFUSED,
  TargetRefusedError,
} from './target-guard.js';
