/**
 * Property-test material for request bodies: the string fields of a body's JSON
 * Schema, found by walking it (so a field added to a schema is covered without
 * listing it here), and generated hostile values for them: NUL, lone surrogates,
 * RTL overrides, very long text, and values nested thousands of levels deep.
 */
import fc from 'fast-check';

export type FieldPath = readonly (string | number)[];

export interface SchemaFields {
  /** Where the schema has a string (array items as index 0). */
  strings: FieldPath[];
  /** Objects whose properties are free (activity `data`, a lead's extra fields). */
  freeForm: FieldPath[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typesOf(schema: Record<string, unknown>): unknown[] {
  const { type } = schema;
  return Array.isArray(type) ? type : [type];
}

/** The string fields and free-form objects of a JSON Schema (our schemas are small and acyclic). */
export function schemaFields(schema: unknown): SchemaFields {
  const fields: SchemaFields = { strings: [], freeForm: [] };
  const visit = (node: unknown, path: FieldPath): void => {
    if (!isRecord(node)) return;
    const types = typesOf(node);
    if (types.includes('string')) fields.strings.push(path);
    const properties = isRecord(node.properties) ? node.properties : undefined;
    for (const [name, child] of Object.entries(properties ?? {})) visit(child, [...path, name]);
    if (types.includes('object') && path.length > 0 && !properties) fields.freeForm.push(path);
    if (isRecord(node.additionalProperties)) fields.freeForm.push(path);
    if (node.items !== undefined) visit(node.items, [...path, 0]);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) for (const child of list) visit(child, path);
    }
  };
  visit(schema, []);
  return fields;
}

/** Written in place of a value, then replaced by DEEP_VALUE in the JSON text. */
const DEEP_MARK = '\u0001deep\u0001';
/** An object nested 5,000 levels, as JSON text (JSON.stringify of it would recurse that deep). */
const DEEP_VALUE = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;

/** Strings PostgreSQL, a terminal, or a parser could trip over. */
export function hostileString(maxLongLength: number): fc.Arbitrary<string> {
  const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
  return fc.oneof(
    fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udc00y',
      '\udc00\ud800',
      '\u202egnp.exe',
      'Jane \u202e eoD',
      '\ufeff',
      '',
      ' ',
      '{{first_name}}',
      '__proto__',
      'x'.repeat(5000),
      'é'.repeat(maxLongLength),
    ),
    fc.string({ unit: anyUnit, maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
}

export type HostileValue = { kind: 'string'; text: string } | { kind: 'deep' };

export function hostileValue(maxLongLength: number): fc.Arbitrary<HostileValue> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: hostileString(maxLongLength).map((text) => ({ kind: 'string' as const, text })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'deep' as const }) },
  );
}

/** An own, enumerable property, whatever its name (`__proto__` included). */
function put(target: object, key: string | number, value: unknown): void {
  Reflect.defineProperty(target, String(key), {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** `body` with `value` at `path` (containers made as needed), as JSON text. */
export function bodyWith(body: object, path: FieldPath, value: HostileValue): string {
  const root: object = structuredClone(body);
  let at: object = root;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      put(at, segment, value.kind === 'deep' ? DEEP_MARK : value.text);
      return;
    }
    const next: unknown = Object.hasOwn(at, segment) ? Reflect.get(at, segment) : undefined;
    const container: object =
      next !== null && typeof next === 'object' ? next : typeof path[i + 1] === 'number' ? [] : {};
    put(at, segment, container);
    at = container;
  });
  return JSON.stringify(root).replace(JSON.stringify(DEEP_MARK), DEEP_VALUE);
}

/** Every place a hostile value goes in a body: each string field, and a free-form object's names and values. */
export function hostilePaths(fields: SchemaFields, freeName: fc.Arbitrary<string>) {
  return fc.oneof(
    ...fields.strings.map((path) => fc.constant(path)),
    ...fields.freeForm.map((path) => fc.constant([...path, 'body'])),
    ...fields.freeForm.map((path) => freeName.map((name): FieldPath => [...path, name])),
  );
}

/** A generated hostile body, as JSON text; `deep` when its value is the deeply nested one. */
export interface HostileBody {
  text: string;
  deep: boolean;
}

/**
 * `body` with a hostile value (long ones up to `maxLongLength`) at one of the places
 * of `fields` ({@link hostilePaths}, free names hostile too).
 */
export function hostileBodies(
  body: object,
  fields: SchemaFields,
  maxLongLength: number,
): fc.Arbitrary<HostileBody> {
  return fc
    .tuple(hostilePaths(fields, hostileString(maxLongLength)), hostileValue(maxLongLength))
    .map(([path, value]) => ({ text: bodyWith(body, path, value), deep: value.kind === 'deep' }));
}
