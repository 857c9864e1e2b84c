import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTING_DEFAULTS, SETTING_NAMES, type SettingName } from '@leadhook/config';
import { parse } from 'yaml';

// No Docker engine runs in CI: this checks docker-compose.yml and infra/Dockerfile
// against the code they describe (settings, ports, entry points).
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, ComposeService> };
const services = compose.services;

function service(name: string): ComposeService {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

/** CONTRACT §5's table: every one must reach the processes. */
const CONTRACT_SETTINGS: readonly SettingName[] = [
  'DATABASE_URL',
  'REDIS_URL',
  'PUBLIC_BASE_URL',
  'INTAKE_PORT',
  'API_PORT',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'CONTACT_HOURS',
  'PLAYBOOK_WORKER_PORT',
  'WEBHOOK_WORKER_PORT',
  'INTAKE_RATE_LIMIT_PER_SOURCE',
  'DUPLICATE_WINDOW_DAYS',
  'LOG_LEVEL',
];

const PROCESSES = [
  { name: 'intake', port: 'INTAKE_PORT' },
  { name: 'api', port: 'API_PORT' },
  { name: 'playbook-worker', port: 'PLAYBOOK_WORKER_PORT' },
  { name: 'webhook-worker', port: 'WEBHOOK_WORKER_PORT' },
] as const;

describe('docker-compose.yml', () => {
  it('has exactly the expected services', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['api', 'intake', 'migrate', 'playbook-worker', 'postgres', 'redis', 'webhook-worker'].sort(),
    );
  });

  it('runs PostgreSQL 16 with a healthcheck, and Redis 7 without persistence', () => {
    expect(service('postgres').image).toBe('postgres:16');
    expect(service('postgres').healthcheck?.test.join(' ')).toMatch(/pg_isready/);
    const redis = service('redis');
    expect(redis.image).toBe('redis:7');
    expect(redis.command).toEqual(['redis-server', '--save', '', '--appendonly', 'no']);
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('migrates once, after PostgreSQL is healthy', () => {
    const migrate = service('migrate');
    expect(migrate.command).toEqual(['node', 'scripts/dist/migrate.js']);
    expect(existsSync(join(ROOT, 'scripts/src/migrate.ts'))).toBe(true);
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(migrate.restart).toBe('no');
  });

  it.each(PROCESSES)(
    'runs $name from the one image, on its port, after migrate and redis',
    ({ name, port }) => {
      const s = service(name);
      expect(s.build).toEqual({ context: '.', dockerfile: 'infra/Dockerfile' });
      expect(s.image).toBe(service('migrate').image);
      expect(s.command).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(existsSync(join(ROOT, 'services', name, 'package.json'))).toBe(true);
      const value = String(s.environment?.[port]);
      expect(value).toBe(SETTING_DEFAULTS[port]);
      expect(s.ports).toEqual([`${value}:${value}`]);
      expect(s.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
      expect(s.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${value}/healthz`);
    },
  );

  it.each(['migrate', ...PROCESSES.map((p) => p.name)])(
    '%s sets every CONTRACT §5 setting and only real settings',
    (name) => {
      const names = Object.keys(service(name).environment ?? {});
      const known: readonly string[] = SETTING_NAMES;
      expect(names.filter((n) => !known.includes(n))).toEqual([]);
      expect(CONTRACT_SETTINGS.filter((n) => !names.includes(n))).toEqual([]);
      expect(service(name).environment?.DATABASE_URL).toMatch(/@postgres:5432\/leadhook$/);
      expect(service(name).environment?.REDIS_URL).toBe('redis://redis:6379');
    },
  );
});

describe('infra/Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'infra/Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('is multi-stage, installs from the lockfile, and runs as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/pnpm fetch --frozen-lockfile/);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile --offline --prod/);
    const runtime = stages.at(-1) ?? '';
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/^USER root$/m);
    expect(runtime).toMatch(/prisma\/migrations/);
  });

  it('copies what each command needs into the runtime image', () => {
    const runtime = stages.at(-1) ?? '';
    for (const dir of ['node_modules', 'packages', 'services', 'scripts']) {
      expect(runtime).toContain(`/app/${dir} ./${dir}`);
    }
  });
});
