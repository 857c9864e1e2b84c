/**
 * Every environment setting (docs/operations.md, "Settings"), parsed and validated once at boot into
 * one frozen object. Only a service's main.ts calls loadConfig; packages receive
 * what they need as options.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** A local daily window in minutes after midnight; end may be 1440 (24:00). */
export interface ContactHours {
  readonly startMinute: number;
  readonly endMinute: number;
  /** The setting as written, e.g. "08:00-21:00". */
  readonly text: string;
}

/** What the simulation provider answers for every SMS it is asked to send. */
export type SimulatedSmsOutcome = 'delivered' | 'failed' | 'undeliverable';
/** What the simulation provider answers for every call it is asked to place. */
export type SimulatedCallOutcome = 'answered' | 'voicemail' | 'failed' | 'undeliverable';

/** Which messaging provider sends the playbooks' SMS and calls. */
export type ProviderKind = 'simulation' | 'twilio';

/**
 * Twilio's credentials and senders (docs/operations.md, "Twilio"): set when
 * PROVIDER=twilio, else null.
 */
export interface TwilioSettings {
  /** `AC` + 32 hex digits. */
  readonly accountSid: string;
  /** The account's auth token: Basic auth of the REST calls, and the key of X-Twilio-Signature. */
  readonly authToken: string;
  /** E.164; calls need it, SMS use it when no Messaging Service is set. */
  readonly fromNumber: string | null;
  /** `MG` + 32 hex digits; when set, SMS are sent through it. */
  readonly messagingServiceSid: string | null;
  /** The REST API's origin, without a trailing slash (tests point it at a local fake). */
  readonly apiBase: string;
}

/**
 * How every HTTP server of leadhook treats slow and idle clients
 * (docs/operations.md, "Settings"): the same for intake, the api and the
 * workers' health servers, public and internal ports alike.
 */
export interface HttpServerSettings {
  /** A connection must have sent a request's headers this long after it began. */
  readonly headersTimeoutMs: number;
  /** ...and the whole request, body included. At least headersTimeoutMs. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** Connections one server holds at once; the next ones are closed on arrival. */
  readonly maxConnections: number;
}

/**
 * REDIS_CLUSTER_NODES parsed (docs/operations.md, "Scaling"): the startup nodes of
 * a Redis Cluster, and the credentials and TLS every node shares.
 */
export interface RedisClusterSettings {
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  readonly username: string | null;
  readonly password: string | null;
  readonly tls: boolean;
}

export interface Config {
  readonly databaseUrl: string;
  /**
   * DATABASE_READ_URL: a streaming replica of DATABASE_URL's database; the api
   * sends its heavy reads there (docs/operations.md, "Scaling"). Null (unset):
   * everything on the primary.
   */
  readonly databaseReadUrl: string | null;
  /** The single Redis; ignored when redisCluster is set. */
  readonly redisUrl: string;
  /** REDIS_CLUSTER_NODES: when set, every process runs on this Redis Cluster instead of redisUrl. */
  readonly redisCluster: RedisClusterSettings | null;
  readonly publicBaseUrl: string;
  readonly intakePort: number;
  readonly apiPort: number;
  /** Intake's port for operators: /metrics, /readyz with its checks, /healthz. */
  readonly intakeInternalPort: number;
  /** The api's port for operators, as intake's. */
  readonly apiInternalPort: number;
  readonly playbookWorkerPort: number;
  readonly webhookWorkerPort: number;
  readonly webhookTimeoutMs: number;
  /** Delay before each attempt, in ms; its length is the number of attempts. */
  readonly webhookRetryScheduleMs: readonly number[];
  readonly webhookAllowPrivateTargets: boolean;
  readonly contactHours: ContactHours;
  /** Requests per second per source; 0 turns limiting off. */
  readonly intakeRateLimitPerSource: number;
  /** Management API requests per second per API key; 0 turns limiting off. */
  readonly apiRateLimitPerKey: number;
  /** Management API requests per second per client address; 0 turns limiting off. */
  readonly apiRateLimitPerAddress: number;
  readonly intakeMaxBodyBytes: number;
  readonly duplicateWindowDays: number;
  readonly logLevel: LogLevel;
  /** Prefix of every Redis key; on a cluster packages/queue adds a hash tag per queue. */
  readonly queuePrefix: string;
  /** How long a process waits for in-flight work on SIGTERM before it exits. */
  readonly shutdownTimeoutMs: number;
  /**
   * Express's `trust proxy` for intake and the api: false (the socket's address
   * is the client's), true (behind proxies that set X-Forwarded-For), or a number
   * of hops. It decides which IP intake keeps as consent evidence, and which
   * address the api's per-address rate limit counts.
   */
  readonly trustProxy: boolean | number;
  /** The simulation provider's answer to every SMS (development, tests, demos). */
  readonly providerSimulationSmsOutcome: SimulatedSmsOutcome;
  /** The simulation provider's answer to every call. */
  readonly providerSimulationCallOutcome: SimulatedCallOutcome;
  /**
   * How long the outbox keeps a day of rows (ms): the partition job drops a day
   * once it ended longer ago than this and none of its rows is open.
   */
  readonly outboxRetentionMs: number;
  /** How long a webhook attempt keeps the subscriber's response body (ms). */
  readonly attemptBodyRetentionMs: number;
  /**
   * Past this age (ms) whole months of history (submissions, activities,
   * deliveries, attempts) are dropped; null (unset) keeps them forever.
   */
  readonly historyRetentionMs: number | null;
  /**
   * The secret the messaging provider signs its webhooks to intake with
   * (`whsec_…`, Standard Webhooks); null (unset) turns the provider hooks off.
   */
  readonly providerWebhookSecret: string | null;
  /** PROVIDER: the simulation (the default) or Twilio. */
  readonly provider: ProviderKind;
  /** Set exactly when provider is 'twilio'. */
  readonly twilio: TwilioSettings | null;
  /**
   * The delays before a step's send is tried again after the carrier answered
   * 429 or 5xx; its length bounds the retries, after which the step records
   * message_failed (or a failed call) and the play goes on.
   */
  readonly providerRetryScheduleMs: readonly number[];
  readonly http: HttpServerSettings;
  /** Fan-out jobs (the `activity` queue) one webhook worker runs at once. */
  readonly webhookFanoutConcurrency: number;
  /** Delivery jobs (the `delivery` queue) one webhook worker runs at once. */
  readonly webhookDeliveryConcurrency: number;
  /**
   * Attempts one subscription may have in flight at once, over every webhook
   * worker and every path that sends (delivery jobs and fan-outs' own sends).
   */
  readonly webhookMaxInFlightPerSubscription: number;
  /** Playbook steps one playbook worker runs at once. */
  readonly playbookStepConcurrency: number;
  /** Enrollments one playbook worker runs at once. */
  readonly playbookEnrollmentConcurrency: number;
  /** How often the workers' reconcilers look for due work the queue lost (ms). */
  readonly reconcileIntervalMs: number;
  /** PostgreSQL connections of intake's pool, per process. */
  readonly intakeDatabasePoolSize: number;
  /** PostgreSQL connections of the api's Prisma pool, per process. */
  readonly apiDatabasePoolSize: number;
  /** PostgreSQL connections of the playbook worker's step and enrollment pool, per process. */
  readonly playbookWorkerDatabasePoolSize: number;
  /** PostgreSQL connections of the webhook worker's fan-out and delivery pool, per process. */
  readonly webhookWorkerDatabasePoolSize: number;
  /** Activities one webhook fan-out transaction takes at most. */
  readonly webhookFanoutBatchSize: number;
  /** Finished attempts one webhook record transaction takes at most. */
  readonly webhookRecordBatchSize: number;
  /** Due items (steps, chain heads) a reconciler round enqueues at most. */
  readonly reconcileBatchSize: number;
  /** Outbox rows the workers' relay claims per topic and round. */
  readonly outboxRelayBatchSize: number;
}

/** Thrown with every problem found, each naming its variable. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const DURATION_UNITS_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** "0", "250ms", "5s", "5m", "2h", "1d" → milliseconds; a bare number is seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (e.g. 0, 500ms, 5s, 5m, 2h, 1d)`);
  const unit = DURATION_UNITS_MS[match[2] ?? 's'] ?? 1000;
  return Math.round(Number(match[1]) * unit);
}

/** "HH:MM-HH:MM" with 24:00 allowed as the end. */
export function parseContactHours(text: string): ContactHours {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not HH:MM-HH:MM`);
  const [sh, sm, eh, em] = match.slice(1).map(Number) as [number, number, number, number];
  const start = sh * 60 + sm;
  const end = eh * 60 + em;
  if (sh > 23 || sm > 59 || em > 59 || end > 1440)
    throw new Error(`"${text}" is not a time of day`);
  if (end <= start) throw new Error(`"${text}" ends before it starts`);
  return { startMinute: start, endMinute: end, text: text.trim() };
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

function port(text: string): number {
  const n = integer(text);
  if (n < 1 || n > 65535) throw new Error(`${n} is not a TCP port (1-65535)`);
  return n;
}

function integer(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new Error(`"${text}" is not a whole number`);
  return Number(text.trim());
}

function positive(text: string): number {
  const n = integer(text);
  if (n < 1) throw new Error(`${n} must be at least 1`);
  return n;
}

/** A positive whole number up to `max`: a typo of a few digits more is refused, not obeyed. */
function upTo(max: number) {
  return (text: string): number => {
    const n = positive(text);
    if (n > max) throw new Error(`${n} is more than ${max}`);
    return n;
  };
}

function url(protocols: readonly string[]) {
  return (text: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw new Error(`"${text}" is not a URL`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new Error(`must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return text;
  };
}

function redactUrl(text: string): string {
  try {
    const u = new URL(text);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable)';
  }
}

function boolean(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw new Error(`"${text}" is not true or false`);
}

function schedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw new Error('is an empty list');
  return parts.map(parseDuration);
}

function logLevel(text: string): LogLevel {
  const t = text.trim().toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(t)) throw new Error(`"${text}" is not one of ${LOG_LEVELS.join(', ')}`);
  return t;
}

function trustProxy(text: string): boolean | number {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  try {
    return boolean(t);
  } catch {
    throw new Error(`"${text}" is not true, false or a number of proxy hops`);
  }
}

function oneOf<T extends string>(values: readonly T[]) {
  return (text: string): T => {
    const t = text.trim().toLowerCase();
    const found = values.find((v) => v === t);
    if (found === undefined) throw new Error(`"${text}" is not one of ${values.join(', ')}`);
    return found;
  };
}

/** Retention periods: a duration of at least an hour (a bare "7" would be 7 seconds). */
function retention(text: string): number {
  const ms = parseDuration(text);
  if (ms < 3_600_000) throw new Error(`"${text}" is shorter than 1h (e.g. 7d, 720h)`);
  return ms;
}

/**
 * REDIS_CLUSTER_NODES: comma-separated `host:port` (`[::1]:7000` for IPv6), or
 * `redis://` / `rediss://` URLs carrying the credentials and TLS, the same for
 * every node (one client configuration serves the whole cluster). Empty: none.
 * Messages name an entry by its position, never its text (it may hold a password).
 */
function redisClusterNodes(text: string): RedisClusterSettings | null {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return null;
  const parsed = entries.map((entry, i) => {
    const withScheme = /^[a-z]+:\/\//i.test(entry) ? entry : `redis://${entry}`;
    let u: URL;
    try {
      u = new URL(withScheme);
    } catch {
      throw new Error(`entry ${i + 1} is not host:port or a redis:// URL`);
    }
    const port = Number(u.port);
    if (
      !['redis:', 'rediss:'].includes(u.protocol) ||
      u.hostname === '' ||
      !Number.isInteger(port) ||
      port < 1 ||
      (u.pathname !== '' && u.pathname !== '/')
    ) {
      throw new Error(`entry ${i + 1} is not host:port or a redis:// URL with a port and no db`);
    }
    return {
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      username: u.username === '' ? null : decodeURIComponent(u.username),
      password: u.password === '' ? null : decodeURIComponent(u.password),
      tls: u.protocol === 'rediss:',
    };
  });
  const [first] = parsed;
  if (!first) return null;
  const same = parsed.every(
    (p) => p.username === first.username && p.password === first.password && p.tls === first.tls,
  );
  if (!same) throw new Error('every entry must have the same scheme and credentials');
  return {
    nodes: Object.freeze(parsed.map(({ host, port }) => Object.freeze({ host, port }))),
    username: first.username,
    password: first.password,
    tls: first.tls,
  };
}

/**
 * HISTORY_RETENTION: empty keeps the history forever (dropping it is the
 * operator's choice); else at least 30 days, so a month's partition is never
 * dropped while its deliveries may still be retried (docs/operations.md, "Retention").
 */
function historyRetention(text: string): number | null {
  if (text.trim() === '') return null;
  const ms = parseDuration(text);
  if (ms < 30 * 86_400_000) throw new Error(`"${text}" is shorter than 30d (e.g. 400d)`);
  return ms;
}

function queuePrefix(text: string): string {
  if (!/^[A-Za-z0-9_{}-]+$/.test(text))
    throw new Error(`"${text}" may use letters, digits, _ - { }`);
  return text;
}

/**
 * Every environment setting and its default: the one list loadConfig reads. The
 * settings table of docs/operations.md, docker-compose.yml and their tests are
 * checked against it.
 */
export const SETTING_DEFAULTS = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/leadhook',
  DATABASE_READ_URL: '',
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_CLUSTER_NODES: '',
  PUBLIC_BASE_URL: 'http://localhost:3000',
  INTAKE_PORT: '3000',
  API_PORT: '3001',
  INTAKE_INTERNAL_PORT: '3004',
  API_INTERNAL_PORT: '3005',
  PLAYBOOK_WORKER_PORT: '3002',
  WEBHOOK_WORKER_PORT: '3003',
  WEBHOOK_TIMEOUT_MS: '15000',
  WEBHOOK_RETRY_SCHEDULE: '0,5s,5m,30m,2h,5h,10h,10h',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
  CONTACT_HOURS: '08:00-21:00',
  INTAKE_RATE_LIMIT_PER_SOURCE: '50',
  API_RATE_LIMIT_PER_KEY: '25',
  API_RATE_LIMIT_PER_ADDRESS: '50',
  INTAKE_MAX_BODY_BYTES: '65536',
  DUPLICATE_WINDOW_DAYS: '30',
  LOG_LEVEL: 'info',
  QUEUE_PREFIX: 'leadhook',
  SHUTDOWN_TIMEOUT_MS: '10000',
  TRUST_PROXY: 'false',
  PROVIDER_SIMULATION_SMS_OUTCOME: 'delivered',
  PROVIDER_SIMULATION_CALL_OUTCOME: 'voicemail',
  OUTBOX_RETENTION: '7d',
  ATTEMPT_BODY_RETENTION: '30d',
  HISTORY_RETENTION: '',
  PROVIDER_WEBHOOK_SECRET: '',
  PROVIDER: 'simulation',
  PROVIDER_RETRY_SCHEDULE: '30s,2m,10m',
  HTTP_HEADERS_TIMEOUT_MS: '10000',
  HTTP_REQUEST_TIMEOUT_MS: '30000',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
  HTTP_MAX_CONNECTIONS: '1024',
  WEBHOOK_FANOUT_CONCURRENCY: '48',
  WEBHOOK_DELIVERY_CONCURRENCY: '96',
  WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: '32',
  PLAYBOOK_STEP_CONCURRENCY: '5',
  PLAYBOOK_ENROLLMENT_CONCURRENCY: '8',
  RECONCILE_INTERVAL_MS: '5000',
  INTAKE_DATABASE_POOL_SIZE: '20',
  API_DATABASE_POOL_SIZE: '10',
  PLAYBOOK_WORKER_DATABASE_POOL_SIZE: '10',
  WEBHOOK_WORKER_DATABASE_POOL_SIZE: '16',
  WEBHOOK_FANOUT_BATCH_SIZE: '8',
  WEBHOOK_RECORD_BATCH_SIZE: '64',
  RECONCILE_BATCH_SIZE: '500',
  OUTBOX_RELAY_BATCH_SIZE: '500',
  TWILIO_ACCOUNT_SID: '',
  TWILIO_AUTH_TOKEN: '',
  TWILIO_FROM_NUMBER: '',
  TWILIO_MESSAGING_SERVICE_SID: '',
  TWILIO_API_BASE: 'https://api.twilio.com',
} as const satisfies Record<string, string>;

export type SettingName = keyof typeof SETTING_DEFAULTS;

/** The names of every environment setting, in the order of SETTING_DEFAULTS. */
export const SETTING_NAMES: readonly SettingName[] = Object.freeze(
  Object.keys(SETTING_DEFAULTS) as SettingName[],
);

/**
 * The settings whose values are credentials: an error names them without their
 * value (a URL's password masked), and on Kubernetes they come from the Secret,
 * never the ConfigMap (infra/k8s.test.ts checks it).
 */
export const SECRET_SETTING_NAMES: readonly SettingName[] = Object.freeze([
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'PROVIDER_WEBHOOK_SECRET',
  'TWILIO_AUTH_TOKEN',
]);

/**
 * Parses the environment. Throws ConfigError naming every bad variable; no
 * credential of SECRET_SETTING_NAMES appears in the message.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  function read<T>(name: SettingName, parse: (text: string) => T): T {
    const fallback = SETTING_DEFAULTS[name];
    const raw = env[name];
    const text = raw === undefined || raw === '' ? fallback : raw;
    try {
      return parse(text);
    } catch (err) {
      const shown = SECRET_SETTING_NAMES.includes(name) ? redactUrl(text) : text;
      const why = err instanceof Error ? err.message : String(err);
      problems.push(`${name}: ${why.replace(text, shown)}`);
      return parse(fallback);
    }
  }

  let config: Config = {
    databaseUrl: read('DATABASE_URL', url(['postgresql:', 'postgres:'])),
    databaseReadUrl: read('DATABASE_READ_URL', optional(url(['postgresql:', 'postgres:']))),
    redisUrl: read('REDIS_URL', url(['redis:', 'rediss:'])),
    redisCluster: read('REDIS_CLUSTER_NODES', redisClusterNodes),
    publicBaseUrl: read('PUBLIC_BASE_URL', (t) => url(['http:', 'https:'])(t).replace(/\/+$/, '')),
    intakePort: read('INTAKE_PORT', port),
    apiPort: read('API_PORT', port),
    intakeInternalPort: read('INTAKE_INTERNAL_PORT', port),
    apiInternalPort: read('API_INTERNAL_PORT', port),
    playbookWorkerPort: read('PLAYBOOK_WORKER_PORT', port),
    webhookWorkerPort: read('WEBHOOK_WORKER_PORT', port),
    webhookTimeoutMs: read('WEBHOOK_TIMEOUT_MS', positive),
    webhookRetryScheduleMs: Object.freeze(read('WEBHOOK_RETRY_SCHEDULE', schedule)),
    webhookAllowPrivateTargets: read('WEBHOOK_ALLOW_PRIVATE_TARGETS', boolean),
    contactHours: Object.freeze(read('CONTACT_HOURS', parseContactHours)),
    intakeRateLimitPerSource: read('INTAKE_RATE_LIMIT_PER_SOURCE', integer),
    apiRateLimitPerKey: read('API_RATE_LIMIT_PER_KEY', integer),
    apiRateLimitPerAddress: read('API_RATE_LIMIT_PER_ADDRESS', integer),
    intakeMaxBodyBytes: read('INTAKE_MAX_BODY_BYTES', positive),
    duplicateWindowDays: read('DUPLICATE_WINDOW_DAYS', integer),
    logLevel: read('LOG_LEVEL', logLevel),
    queuePrefix: read('QUEUE_PREFIX', queuePrefix),
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_MS', positive),
    trustProxy: read('TRUST_PROXY', trustProxy),
    providerSimulationSmsOutcome: read(
      'PROVIDER_SIMULATION_SMS_OUTCOME',
      oneOf<SimulatedSmsOutcome>(['delivered', 'failed', 'undeliverable']),
    ),
    providerSimulationCallOutcome: read(
      'PROVIDER_SIMULATION_CALL_OUTCOME',
      oneOf<SimulatedCallOutcome>(['answered', 'voicemail', 'failed', 'undeliverable']),
    ),
    outboxRetentionMs: read('OUTBOX_RETENTION', retention),
    attemptBodyRetentionMs: read('ATTEMPT_BODY_RETENTION', retention),
    historyRetentionMs: read('HISTORY_RETENTION', historyRetention),
    providerWebhookSecret: read('PROVIDER_WEBHOOK_SECRET', webhookSecret),
    provider: read('PROVIDER', oneOf<ProviderKind>(['simulation', 'twilio'])),
    twilio: null,
    providerRetryScheduleMs: Object.freeze(read('PROVIDER_RETRY_SCHEDULE', retrySchedule)),
    http: Object.freeze({
      headersTimeoutMs: read('HTTP_HEADERS_TIMEOUT_MS', positive),
      requestTimeoutMs: read('HTTP_REQUEST_TIMEOUT_MS', positive),
      keepAliveTimeoutMs: read('HTTP_KEEP_ALIVE_TIMEOUT_MS', positive),
      maxConnections: read('HTTP_MAX_CONNECTIONS', positive),
    }),
    webhookFanoutConcurrency: read('WEBHOOK_FANOUT_CONCURRENCY', upTo(1000)),
    webhookDeliveryConcurrency: read('WEBHOOK_DELIVERY_CONCURRENCY', upTo(1000)),
    webhookMaxInFlightPerSubscription: read('WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION', upTo(1000)),
    playbookStepConcurrency: read('PLAYBOOK_STEP_CONCURRENCY', upTo(1000)),
    playbookEnrollmentConcurrency: read('PLAYBOOK_ENROLLMENT_CONCURRENCY', upTo(1000)),
    // Below 100 ms the reconcilers' queries would run back to back; above an hour
    // lost work would wait longer than any retry delay worth having.
    reconcileIntervalMs: read('RECONCILE_INTERVAL_MS', (t) => {
      const n = upTo(3_600_000)(t);
      if (n < 100) throw new Error(`${n} is less than 100`);
      return n;
    }),
    intakeDatabasePoolSize: read('INTAKE_DATABASE_POOL_SIZE', upTo(1000)),
    apiDatabasePoolSize: read('API_DATABASE_POOL_SIZE', upTo(1000)),
    playbookWorkerDatabasePoolSize: read('PLAYBOOK_WORKER_DATABASE_POOL_SIZE', upTo(1000)),
    webhookWorkerDatabasePoolSize: read('WEBHOOK_WORKER_DATABASE_POOL_SIZE', upTo(1000)),
    webhookFanoutBatchSize: read('WEBHOOK_FANOUT_BATCH_SIZE', upTo(1000)),
    webhookRecordBatchSize: read('WEBHOOK_RECORD_BATCH_SIZE', upTo(1000)),
    reconcileBatchSize: read('RECONCILE_BATCH_SIZE', upTo(10_000)),
    outboxRelayBatchSize: read('OUTBOX_RELAY_BATCH_SIZE', upTo(10_000)),
  };
  // Node refuses a server whose headers may take longer than the whole request.
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  // A process's internal port must not be its public one: /metrics would face sellers.
  if (config.intakeInternalPort === config.intakePort) {
    problems.push('INTAKE_INTERNAL_PORT: must differ from INTAKE_PORT');
  }
  if (config.apiInternalPort === config.apiPort) {
    problems.push('API_INTERNAL_PORT: must differ from API_PORT');
  }
  // Read (and checked) whatever the provider: a typo is found before the switch.
  const twilio = readTwilio(read);
  if (config.provider === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const) {
      if ((env[name] ?? '') === '') problems.push(`${name}: required when PROVIDER=twilio`);
    }
    if (twilio.fromNumber === null && twilio.messagingServiceSid === null) {
      problems.push(
        'TWILIO_FROM_NUMBER: set it or TWILIO_MESSAGING_SERVICE_SID when PROVIDER=twilio',
      );
    }
    config = { ...config, twilio: Object.freeze(twilio) };
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/**
 * A signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 to 64
 * random bytes (what `openssl rand -base64 32` prints, prefixed). Empty: none.
 * The message never repeats the value.
 */
function webhookSecret(text: string): string | null {
  if (text === '') return null;
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(text);
  const bytes = match?.[1] ? Buffer.from(match[1], 'base64').length : 0;
  if (bytes < 24 || bytes > 64) {
    throw new Error('expected whsec_ followed by the base64 of 24 to 64 random bytes');
  }
  return text;
}

/** The Twilio settings, each checked when given (PROVIDER=twilio requires some: loadConfig). */
function readTwilio(read: <T>(name: SettingName, parse: (text: string) => T) => T): TwilioSettings {
  return {
    accountSid: read('TWILIO_ACCOUNT_SID', optional(sid('AC'))) ?? '',
    authToken: read('TWILIO_AUTH_TOKEN', optional(authToken)) ?? '',
    fromNumber: read('TWILIO_FROM_NUMBER', optional(e164)),
    messagingServiceSid: read('TWILIO_MESSAGING_SERVICE_SID', optional(sid('MG'))),
    apiBase: read('TWILIO_API_BASE', (t) => url(['http:', 'https:'])(t).replace(/\/+$/, '')),
  };
}

function optional<T>(parse: (text: string) => T) {
  return (text: string): T | null => (text === '' ? null : parse(text));
}

/** A Twilio SID: its two-letter kind and 32 lowercase hex digits. */
function sid(kind: 'AC' | 'MG') {
  return (text: string): string => {
    if (!new RegExp(`^${kind}[0-9a-f]{32}$`).test(text.trim())) {
      throw new Error(`"${text}" is not a Twilio SID (${kind} and 32 hex digits)`);
    }
    return text.trim();
  };
}

/** An auth token is 32 hex digits; the message never repeats it. */
function authToken(text: string): string {
  if (!/^[0-9a-f]{32}$/.test(text.trim())) throw new Error('expected 32 hex digits');
  return text.trim();
}

function e164(text: string): string {
  if (!/^\+[1-9]\d{6,14}$/.test(text.trim())) {
    throw new Error(`"${text}" is not an E.164 number (e.g. +14155550100)`);
  }
  return text.trim();
}

/** A retry schedule may be empty ("" or "none": no retry). */
function retrySchedule(text: string): number[] {
  const t = text.trim().toLowerCase();
  if (t === 'none') return [];
  return schedule(text);
}

/** True when CONTACT_HOURS is wider than the federal 08:00-21:00 floor. */
export function contactHoursWiderThanLaw(hours: ContactHours): boolean {
  return hours.startMinute < 8 * 60 || hours.endMinute > 21 * 60;
}

/**
 * loadConfig for a process's main: a bad value stops the process with a message
 * naming the variable, before anything else starts.
 */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`leadhook: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
