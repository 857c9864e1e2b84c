import { createTestDatabase, type TestDatabase } from './settings.js';

/**
 * A test file's harness, started before its first test and closed after its
 * last (with `afterEach`, also tidied after each test): what every test file of
 * a service otherwise writes as a `let` and two or three hooks. The value is a
 * stand-in for the harness, usable from the first test on.
 */
export function useHarness<T extends { close(): Promise<void> }>(
  start: () => Promise<T>,
  options: {
    afterEach?: (harness: T) => Promise<void>;
    /** For starting and closing, when jest's default is too short (a browser, a build). */
    timeoutMs?: number;
  } = {},
): T {
  let current: T | undefined;
  const started = (): T => {
    if (!current) throw new Error('the harness is used before beforeAll started it');
    return current;
  };
  beforeAll(async () => {
    current = await start();
  }, options.timeoutMs);
  const tidy = options.afterEach;
  if (tidy) {
    afterEach(async () => {
      if (current) await tidy(current);
    });
  }
  afterAll(async () => {
    await current?.close();
  }, options.timeoutMs);
  return new Proxy({} as T, {
    get(_target, key) {
      const harness = started();
      const value: unknown = Reflect.get(harness, key, harness);
      // A class's methods run on the harness itself (its private fields need it as
      // `this`); its own values, an app function among them, are handed out as they are.
      const method = typeof value === 'function' && !Object.hasOwn(harness, key);
      return method ? Function.prototype.bind.call(value, harness) : value;
    },
    has: (_target, key) => Reflect.has(started(), key),
  });
}

/** A test file's own database (createTestDatabase), made before its first test and dropped after its last. */
export function useTestDatabase(): TestDatabase {
  return useHarness(async () => {
    const db = await createTestDatabase();
    return { ...db, close: db.drop };
  });
}
