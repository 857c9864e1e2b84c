import type { Schema } from '../api/client';

/**
 * The API's per-field problems (`error.details[]` of a 422) by field, in words, so a
 * screen can show each next to its field; the problems of no field under ''.
 */
export function fieldProblems(cause: unknown): Record<string, string> {
  const problems: Record<string, string> = {};
  if (typeof cause !== 'object' || cause === null || !('error' in cause)) return problems;
  const details = (cause as Schema<'Error'>).error.details;
  if (!Array.isArray(details)) return problems;
  for (const detail of details) {
    const field = detail.field ?? '';
    problems[field] = problems[field] ? `${problems[field]} ${detail.message}` : detail.message;
  }
  return problems;
}
