import { type Logger, type LoggerOptions, pino } from 'pino';

/**
 * Paths pino removes from every log line. Personal data and secrets never reach
 * logs (docs/operations.md, "Logs"): code logs ids, never these values, and this list is the net
 * under that habit for objects logged whole by mistake.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'req.body',
  'res.headers["set-cookie"]',
  'body',
  'phone',
  'email',
  'api_key',
  'apiKey',
  'secret',
  'intake_key',
  'intakeKey',
  'source_key',
  'password',
  'authorization',
  '*.body',
  '*.phone',
  '*.email',
  '*.api_key',
  '*.apiKey',
  '*.secret',
  '*.intake_key',
  '*.intakeKey',
  '*.source_key',
  '*.password',
  '*.authorization',
];

export interface LoggerConfig {
  /** The process: intake, api, playbook-worker, webhook-worker, cli. */
  service: string;
  level: LoggerOptions['level'];
  /** Where lines go; stdout by default. Tests pass a stream to read them. */
  destination?: pino.DestinationStream;
}

/**
 * Fields of driver errors that quote the data of the failing statement: pg's
 * `detail` ("Key (phone)=(+1…) already exists"), `where` (the JSON line that did
 * not parse), `parameters`, and the like. An error is logged with its type,
 * message, code and stack, never these.
 */
const ERROR_DATA_FIELDS = ['detail', 'where', 'parameters', 'hint', 'internalQuery', 'query'];

function errorWithoutData(err: Error): Record<string, unknown> {
  const serialized: Record<string, unknown> = { ...pino.stdSerializers.err(err) };
  for (const field of ERROR_DATA_FIELDS) delete serialized[field];
  return serialized;
}

/** A JSON-lines logger with redaction, one per process. */
export function createLogger(config: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: config.level ?? 'info',
    base: { service: config.service },
    redact: { paths: REDACT_PATHS, remove: true },
    serializers: { err: errorWithoutData },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return config.destination ? pino(options, config.destination) : pino(options);
}

export type { Logger };
