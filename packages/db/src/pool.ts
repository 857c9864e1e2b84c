import pg from 'pg';

export interface PoolOptions {
  databaseUrl: string;
  max?: number;
}

/**
 * A plain pg pool, for the few hot paths that use raw SQL (intake) and for the
 * migrator. Errors of idle clients (PostgreSQL restarted) are expected and must
 * not crash the process: the pool replaces the client on next use.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.max ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool drops it. Readiness probes and
    // the next query report the outage.
  });
  pool.on('connect', (client) => {
    // A checked-out client whose server goes away between two queries (a restart's
    // 57P01 while the step's provider call runs) emits 'error' on itself, not on the
    // pool: without a listener that crashes the process. The next query on it
    // rejects, and the pool discards it on release (found by e2e/faults).
    client.on('error', () => {});
  });
  return pool;
}

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  // Prisma's own: the server cannot be reached (its driver adapter's
  // DatabaseNotReachable, e.g. nothing listening), connect timeout, connection closed.
  'P1001',
  'P1002',
  'P1017',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/**
 * The driver adapter's own kinds for the same (Prisma 7's DriverAdapterError,
 * kept under a known request error's meta.driverAdapterError, e.g. a raw query's
 * P2010 when nothing listens).
 */
const UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/**
 * True for errors that mean "PostgreSQL cannot be reached right now" (as opposed
 * to a bug or a constraint): the caller answers 503 and the client retries.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
    // Prisma's driver-adapter errors keep the driver's error under cause / originalCode.
    const original = (e as { originalCode?: unknown }).originalCode;
    if (typeof original === 'string' && UNAVAILABLE_CODES.has(original)) return true;
    const { kind, meta } = e as { kind?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof kind === 'string' && UNAVAILABLE_KINDS.has(kind)) return true;
    e = cause ?? meta?.driverAdapterError;
  }
  return false;
}

/**
 * A PostgreSQL identifier (a table or partition name) quoted for SQL text:
 * pg's own escaping, for the statements that name a table they read from the
 * catalog (DDL and per-partition reads take no bind parameters for names).
 */
export const escapeIdentifier: (name: string) => string = pg.escapeIdentifier;
