import type { Schema } from './client';

type ErrorEnvelope = Schema<'Error'>;

/** The API's error envelope (`{ error: { code, message, details } }`). */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'message' in error;
}

/**
 * A failed API call in words, for the person at the screen: the API's own message
 * when it sent the error envelope, else what the status means. `cause` is the
 * `error` openapi-fetch returned, or what a call threw (the network failed).
 */
export function apiErrorText(cause: unknown, response?: Response): string {
  if (response === undefined || cause instanceof TypeError) {
    return 'The API could not be reached. Check your connection and try again.';
  }
  if (response.status === 401) {
    return 'The API key was not accepted. Check that you copied the whole key and that it has not been rotated.';
  }
  if (response.status === 429) {
    return 'Too many requests for now. Wait a few seconds and try again.';
  }
  const message = isErrorEnvelope(cause) ? cause.error.message : undefined;
  if (message) return message;
  if (response.status >= 500) {
    return `The API failed to answer (status ${response.status}). Try again in a moment.`;
  }
  return `The API refused the request (status ${response.status}).`;
}
