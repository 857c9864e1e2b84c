/**
 * What text a request body may carry, checked in one place for intake's lead
 * and the API's bodies (docs/api.md, "Errors"; docs/intake.md, "Fields").
 * PostgreSQL's text and jsonb cannot store NUL or an unpaired UTF-16 surrogate:
 * such text is refused as invalid input rather than failing at the insert (a
 * 500 whose error would carry the data). And since several of a body's readers
 * walk it (hashing, validation, serialization), its nesting is bounded before
 * any of them runs; this walk itself is iterative, so no depth overflows it.
 */

/** How deeply a body's objects and arrays may nest: far beyond what any body needs. */
export const MAX_JSON_DEPTH = 32;

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL, or an unpaired surrogate: text PostgreSQL cannot store. */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

export const UNSTORABLE_TEXT_MESSAGE =
  'contains a character that cannot be stored (NUL or an unpaired surrogate)';

export interface JsonTextProblem {
  /** Where: the property names and array indexes from the root ([] for the root). */
  path: (string | number)[];
  /** `unstorable_text`: a string or a property name there; `too_deep`: nesting there exceeds the bound. */
  kind: 'unstorable_text' | 'too_deep';
}

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | null;
  key: string | number | null;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first problem of a parsed JSON value, or null: text that cannot be stored
 * (in a string or a property name), or objects and arrays nested more than
 * `maxDepth` levels (the root object is level 1). Linear in the value's size.
 */
export function jsonTextProblem(
  root: unknown,
  maxDepth: number = MAX_JSON_DEPTH,
): JsonTextProblem | null {
  const stack: Visit[] = [{ value: root, depth: 0, parent: null, key: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return { path: pathOf(visit), kind: 'unstorable_text' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const depth = visit.depth + 1;
    if (depth > maxDepth) return { path: pathOf(visit), kind: 'too_deep' };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], depth, parent: visit, key: i });
      }
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const at: Visit = { value: child, depth, parent: visit, key };
      if (isUnstorableText(key)) return { path: pathOf(at), kind: 'unstorable_text' };
      stack.push(at);
    }
  }
  return null;
}

/**
 * The charset a Content-Type names, lower-cased without quotes, or null when it
 * names none. Bodies are read as UTF-8 only: a JSON body in UTF-7 or UTF-16 could
 * carry text (`+ADw-script+AD4-`) that no check of the UTF-8 reading sees.
 */
export function charsetOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return null;
}

/**
 * Whether a body of this Content-Type is UTF-8: no charset, or charset=utf-8 in
 * any case, or `utf8`, the alias some client libraries write (the WHATWG
 * Encoding standard's label list has both).
 */
export function isUtf8ContentType(contentType: string | undefined): boolean {
  const charset = charsetOf(contentType);
  return charset === null || charset === 'utf-8' || charset === 'utf8';
}
