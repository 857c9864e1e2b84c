import {
  ConfigError,
  loadConfig,
  parseContactHours,
  parseDuration,
  SECRET_SETTING_NAMES,
  SETTING_NAMES,
} from './config.js';

/** Each NAME=value is refused by loadConfig with a message that names NAME on its own line. */
function refusesNamingIt(cases: readonly (readonly [name: string, value: string])[]): void {
  it.each(cases)('refuse %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\n  ${name}: `));
  });
}

describe('loadConfig', () => {
  it('gives the contract defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/leadhook',
      redisUrl: 'redis://127.0.0.1:6379',
      publicBaseUrl: 'http://localhost:3000',
      intakePort: 3000,
      apiPort: 3001,
      intakeInternalPort: 3004,
      apiInternalPort: 3005,
      playbookWorkerPort: 3002,
      webhookWorkerPort: 3003,
      webhookTimeoutMs: 15000,
      webhookAllowPrivateTargets: false,
      intakeRateLimitPerSource: 50,
      intakeMaxBodyBytes: 65536,
      duplicateWindowDays: 30,
      logLevel: 'info',
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 1024,
      },
    });
    expect(config.webhookRetryScheduleMs).toEqual([
      0, 5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(config.contactHours).toEqual({ startMinute: 480, endMinute: 1260, text: '08:00-21:00' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        INTAKE_PORT: '70000',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe',
        LOG_LEVEL: 'loud',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^INTAKE_PORT: /);
    expect(problems[1]).toMatch(/^WEBHOOK_ALLOW_PRIVATE_TARGETS: /);
    expect(problems[2]).toMatch(/^LOG_LEVEL: /);
  });

  it.each(SECRET_SETTING_NAMES)('names a bad %s without showing its credential', (name) => {
    expect(() => loadConfig({ [name]: 'mysql://u:hunter2@db/x' })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: 'mysql://u:hunter2@db/x' });
    } catch (err) {
      expect(String(err)).toContain(`${name}: `);
      expect(String(err)).not.toContain('hunter2');
    }
  });

  it('reads every name of SETTING_NAMES (the list docs and compose are checked against)', () => {
    const env = Object.fromEntries(SETTING_NAMES.map((name) => [name, '!']));
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const named = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(named).toEqual([...SETTING_NAMES]);
  });

  it('refuses a headers timeout longer than the request timeout (Node would not start)', () => {
    expect(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000', HTTP_REQUEST_TIMEOUT_MS: '30000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('refuses an internal port equal to its public one (metrics would face the internet)', () => {
    expect(() => loadConfig({ INTAKE_PORT: '8080', INTAKE_INTERNAL_PORT: '8080' })).toThrow(
      /INTAKE_INTERNAL_PORT: must differ from INTAKE_PORT/,
    );
    expect(() => loadConfig({ API_PORT: '8081', API_INTERNAL_PORT: '8081' })).toThrow(
      /API_INTERNAL_PORT: must differ from API_PORT/,
    );
  });

  it('reads DATABASE_READ_URL as optional: unset (or empty) is null, everything on the primary', () => {
    expect(loadConfig({}).databaseReadUrl).toBeNull();
    expect(loadConfig({ DATABASE_READ_URL: '' }).databaseReadUrl).toBeNull();
    const replica = 'postgresql://leadhook:pw@replica.example:5432/leadhook';
    expect(loadConfig({ DATABASE_READ_URL: replica }).databaseReadUrl).toBe(replica);
  });

  it('trims a trailing slash from PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://in.example.com/' }).publicBaseUrl).toBe(
      'https://in.example.com',
    );
  });
});

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['250ms', 250],
    ['5s', 5000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['7', 7000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
  it.each(['', 's', '-1s', '5 weeks'])('refuses %j', (text) => {
    expect(() => parseDuration(text)).toThrow(/not a duration/);
  });
});

describe('parseContactHours', () => {
  it('accepts 24:00 as an end', () => {
    expect(parseContactHours('00:00-24:00')).toMatchObject({ startMinute: 0, endMinute: 1440 });
  });
  it.each(['8-21', '21:00-08:00', '08:00-24:01', '25:00-26:00'])('refuses %j', (text) => {
    expect(() => parseContactHours(text)).toThrow();
  });
});

describe('PROVIDER and the Twilio settings', () => {
  const account = {
    TWILIO_ACCOUNT_SID: `AC${'a1'.repeat(16)}`,
    TWILIO_AUTH_TOKEN: 'f0'.repeat(16),
  };

  it('defaults to the simulation, with no Twilio settings needed', () => {
    const config = loadConfig({});
    expect(config.provider).toBe('simulation');
    expect(config.twilio).toBeNull();
    expect(config.providerRetryScheduleMs).toEqual([30_000, 120_000, 600_000]);
  });

  it('reads the account, a sender and the API base with PROVIDER=twilio', () => {
    const config = loadConfig({
      PROVIDER: 'twilio',
      ...account,
      TWILIO_FROM_NUMBER: '+14155550100',
      TWILIO_API_BASE: 'http://127.0.0.1:4010/',
      PROVIDER_RETRY_SCHEDULE: 'none',
    });
    expect(config.twilio).toEqual({
      accountSid: account.TWILIO_ACCOUNT_SID,
      authToken: account.TWILIO_AUTH_TOKEN,
      fromNumber: '+14155550100',
      messagingServiceSid: null,
      apiBase: 'http://127.0.0.1:4010',
    });
    expect(config.providerRetryScheduleMs).toEqual([]);
  });

  it('stops at boot naming each missing Twilio setting', () => {
    expect(() => loadConfig({ PROVIDER: 'twilio' })).toThrow(
      /TWILIO_ACCOUNT_SID: required[\s\S]*TWILIO_AUTH_TOKEN: required[\s\S]*TWILIO_FROM_NUMBER: set it or TWILIO_MESSAGING_SERVICE_SID/,
    );
    expect(() =>
      loadConfig({
        PROVIDER: 'twilio',
        ...account,
        TWILIO_MESSAGING_SERVICE_SID: `MG${'0'.repeat(32)}`,
      }),
    ).not.toThrow();
  });

  it('refuses malformed values whatever the provider, never echoing the token', () => {
    expect(() => loadConfig({ PROVIDER: 'carrier-pigeon' })).toThrow(/PROVIDER: /);
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(/TWILIO_ACCOUNT_SID: /);
    expect(() => loadConfig({ TWILIO_FROM_NUMBER: '415-555-0100' })).toThrow(
      /TWILIO_FROM_NUMBER: .*E\.164/,
    );
    expect(() => loadConfig({ TWILIO_AUTH_TOKEN: 'not-a-token-secret' })).toThrow(
      /TWILIO_AUTH_TOKEN: expected 32 hex digits/,
    );
    try {
      loadConfig({ TWILIO_AUTH_TOKEN: 'not-a-token-secret' });
    } catch (err) {
      expect(String(err)).not.toContain('not-a-token-secret');
    }
  });
});

describe('PROVIDER_WEBHOOK_SECRET', () => {
  it('is off (null) unless set', () => {
    expect(loadConfig({}).providerWebhookSecret).toBeNull();
  });

  it('takes a Standard Webhooks secret', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(loadConfig({ PROVIDER_WEBHOOK_SECRET: secret }).providerWebhookSecret).toBe(secret);
  });

  it.each(['whsec_c2hvcnQ=', 'not-a-secret', `whsec_${Buffer.alloc(65).toString('base64')}`])(
    'refuses %s without repeating it',
    (text) => {
      expect(() => loadConfig({ PROVIDER_WEBHOOK_SECRET: text })).toThrow(
        /PROVIDER_WEBHOOK_SECRET: expected whsec_/,
      );
      try {
        loadConfig({ PROVIDER_WEBHOOK_SECRET: text });
      } catch (err) {
        expect((err as Error).message).not.toContain(text);
      }
    },
  );
});

describe('TRUST_PROXY', () => {
  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
  ])('%s → %p', (text, value) => {
    expect(loadConfig({ TRUST_PROXY: text }).trustProxy).toBe(value);
  });
  it('refuses anything else, naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'sometimes' })).toThrow(/TRUST_PROXY: /);
  });
});

describe('retention settings', () => {
  it('default to 7 days of closed outbox rows and 30 days of attempt bodies', () => {
    const config = loadConfig({});
    expect(config.outboxRetentionMs).toBe(7 * 86_400_000);
    expect(config.attemptBodyRetentionMs).toBe(30 * 86_400_000);
  });
  it('take durations', () => {
    const config = loadConfig({ OUTBOX_RETENTION: '36h', ATTEMPT_BODY_RETENTION: '1d' });
    expect(config.outboxRetentionMs).toBe(36 * 3_600_000);
    expect(config.attemptBodyRetentionMs).toBe(86_400_000);
  });
  it.each([
    ['OUTBOX_RETENTION', '7'],
    ['OUTBOX_RETENTION', 'a week'],
    ['ATTEMPT_BODY_RETENTION', '59m'],
    ['ATTEMPT_BODY_RETENTION', '0'],
    ['HISTORY_RETENTION', '29d'],
    ['HISTORY_RETENTION', 'forever'],
  ])('refuses %s=%j, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });
  it('keep the history forever unless HISTORY_RETENTION is set (whole months past it are dropped)', () => {
    expect(loadConfig({}).historyRetentionMs).toBeNull();
    expect(loadConfig({ HISTORY_RETENTION: '' }).historyRetentionMs).toBeNull();
    expect(loadConfig({ HISTORY_RETENTION: '400d' }).historyRetentionMs).toBe(400 * 86_400_000);
  });
});

describe('the knobs operators tune', () => {
  it('default to the values the workers were built with', () => {
    expect(loadConfig({})).toMatchObject({
      webhookFanoutConcurrency: 48,
      webhookDeliveryConcurrency: 96,
      webhookMaxInFlightPerSubscription: 32,
      playbookStepConcurrency: 5,
      playbookEnrollmentConcurrency: 8,
      reconcileIntervalMs: 5000,
    });
  });

  it('take positive whole numbers', () => {
    expect(
      loadConfig({
        WEBHOOK_FANOUT_CONCURRENCY: '12',
        WEBHOOK_DELIVERY_CONCURRENCY: '200',
        WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: '1',
        PLAYBOOK_STEP_CONCURRENCY: '1',
        PLAYBOOK_ENROLLMENT_CONCURRENCY: '1000',
        RECONCILE_INTERVAL_MS: '100',
      }),
    ).toMatchObject({
      webhookFanoutConcurrency: 12,
      webhookDeliveryConcurrency: 200,
      webhookMaxInFlightPerSubscription: 1,
      playbookStepConcurrency: 1,
      playbookEnrollmentConcurrency: 1000,
      reconcileIntervalMs: 100,
    });
  });

  refusesNamingIt([
    ['WEBHOOK_FANOUT_CONCURRENCY', '0'],
    ['WEBHOOK_DELIVERY_CONCURRENCY', '1001'],
    ['WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION', '0'],
    ['WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION', '1001'],
    ['PLAYBOOK_STEP_CONCURRENCY', '-1'],
    ['PLAYBOOK_ENROLLMENT_CONCURRENCY', '2.5'],
    ['RECONCILE_INTERVAL_MS', '99'],
    ['RECONCILE_INTERVAL_MS', '3600001'],
  ]);
});

describe('database pool sizes', () => {
  it('default to the pools each process has opened so far', () => {
    expect(loadConfig({})).toMatchObject({
      intakeDatabasePoolSize: 20,
      apiDatabasePoolSize: 10,
      playbookWorkerDatabasePoolSize: 10,
      webhookWorkerDatabasePoolSize: 16,
    });
  });

  it('take positive whole numbers', () => {
    expect(
      loadConfig({ INTAKE_DATABASE_POOL_SIZE: '40', WEBHOOK_WORKER_DATABASE_POOL_SIZE: '1' }),
    ).toMatchObject({ intakeDatabasePoolSize: 40, webhookWorkerDatabasePoolSize: 1 });
  });

  refusesNamingIt([
    ['INTAKE_DATABASE_POOL_SIZE', '0'],
    ['API_DATABASE_POOL_SIZE', 'ten'],
    ['PLAYBOOK_WORKER_DATABASE_POOL_SIZE', '1001'],
    ['WEBHOOK_WORKER_DATABASE_POOL_SIZE', '-4'],
  ]);
});

describe('batch sizes', () => {
  it('default to the batches the workers were built with', () => {
    expect(loadConfig({})).toMatchObject({
      webhookFanoutBatchSize: 8,
      webhookRecordBatchSize: 64,
      reconcileBatchSize: 500,
      outboxRelayBatchSize: 500,
    });
  });

  it('take positive whole numbers', () => {
    expect(
      loadConfig({ WEBHOOK_RECORD_BATCH_SIZE: '1', OUTBOX_RELAY_BATCH_SIZE: '10000' }),
    ).toMatchObject({ webhookRecordBatchSize: 1, outboxRelayBatchSize: 10_000 });
  });

  refusesNamingIt([
    ['WEBHOOK_FANOUT_BATCH_SIZE', '0'],
    ['WEBHOOK_RECORD_BATCH_SIZE', '1001'],
    ['RECONCILE_BATCH_SIZE', '10001'],
    ['OUTBOX_RELAY_BATCH_SIZE', 'all'],
  ]);
});

describe('REDIS_CLUSTER_NODES', () => {
  it('is off (null) unless set: REDIS_URL is the Redis', () => {
    expect(loadConfig({}).redisCluster).toBeNull();
  });

  it('takes host:port entries, IPv6 in brackets', () => {
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, [::1]:7001,redis-2:6379 ' }).redisCluster,
    ).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '::1', port: 7001 },
        { host: 'redis-2', port: 6379 },
      ],
      username: null,
      password: null,
      tls: false,
    });
  });

  it('takes the credentials and TLS every node shares from URLs', () => {
    const config = loadConfig({
      REDIS_CLUSTER_NODES: 'rediss://app:p%40ss@a.example:6380,rediss://app:p%40ss@b.example:6380',
    });
    expect(config.redisCluster).toEqual({
      nodes: [
        { host: 'a.example', port: 6380 },
        { host: 'b.example', port: 6380 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
  });

  it.each([
    ['no port', 'redis-1'],
    ['a db number', 'redis://redis-1:6379/2'],
    ['another scheme', 'http://redis-1:6379'],
    ['credentials that differ', 'redis://:s3cret-a@a:6379,redis://:s3cret-b@b:6379'],
  ])('refuses %s, naming the setting and never echoing a password', (_, value) => {
    let error: unknown;
    try {
      loadConfig({ REDIS_CLUSTER_NODES: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/\n {2}REDIS_CLUSTER_NODES: /);
    expect((error as ConfigError).message).not.toContain('s3cret');
  });

  it('is a credential: on Kubernetes it comes from the Secret', () => {
    expect(SECRET_SETTING_NAMES).toContain('REDIS_CLUSTER_NODES');
  });
});
