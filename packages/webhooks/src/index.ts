export type { AttemptResult, DeliverOptions } from './deliver.js';
export { deliver, parseRetryAfter, RESPONSE_BODY_LIMIT, USER_AGENT } from './deliver.js';
export type { BuiltPayload, PayloadRows } from './payload.js';
export { payloadOf } from './payload.js';
export type { SignInput } from './signature.js';
export { generateSecret, SECRET_PREFIX, sign } from './signature.js';
export type { Resolve } from './target-guard.js';
export {
  guardedLookup,
  isPublicAddress,
  refuseLiteral,
  systemResolve,
  TARGET_REFUSED,
  TargetRefusedError,
} from './target-guard.js';
