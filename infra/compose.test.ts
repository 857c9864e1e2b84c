import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, SETTING_DEFAULTS, SETTING_NAMES, type SettingName } from '@leadhook/config';
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

/**
 * Settings compose gives a value of its own rather than `${NAME:-<packages/config's
 * default>}`, exactly as docker-compose.yml writes them. The connection strings
 * name compose's own postgres and redis, and are not overridable: a DATABASE_URL
 * or REDIS_URL exported for `pnpm start` (127.0.0.1) would point the containers
 * at themselves.
 */
const COMPOSE_OWN_VALUES: Partial<Record<SettingName, string>> = {
  DATABASE_URL: `postgresql://postgres:\${POSTGRES_PASSWORD:-leadhook}@postgres:5432/leadhook`,
  REDIS_URL: 'redis://redis:6379',
};

/** A value as `docker compose` resolves it with no variable set in the shell or .env. */
function unset(text: string): string {
  return text.replace(/\$\{[A-Z0-9_]+(?::-([^}]*))?\}/g, (_, fallback?: string) => fallback ?? '');
}

const PROCESSES = [
  { name: 'intake', port: 'INTAKE_PORT' },
  { name: 'api', port: 'API_PORT' },
  { name: 'playbook-worker', port: 'PLAYBOOK_WORKER_PORT' },
  { name: 'webhook-worker', port: 'WEBHOOK_WORKER_PORT' },
] as const;

/** Every service that runs leadhook's code, and so calls loadConfig. */
const LEADHOOK_SERVICES = ['migrate', ...PROCESSES.map((p) => p.name)];

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
      // The published port and the healthcheck follow the setting when it is overridden.
      const value = String(s.environment?.[port]);
      expect(value).toBe(`\${${port}:-${SETTING_DEFAULTS[port]}}`);
      expect(s.ports).toEqual([`${value}:${value}`]);
      expect(s.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
      expect(s.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${value}/healthz`);
    },
  );

  it.each([
    ['intake', 'INTAKE_INTERNAL_PORT'],
    ['api', 'API_INTERNAL_PORT'],
  ] as const)(
    'publishes no port of %s but its public one (not %s: docs/operations.md, "What to expose")',
    (name, internal) => {
      const published = (service(name).ports ?? []).map(unset).join(' ');
      expect(published).not.toContain(SETTING_DEFAULTS[internal]);
      expect(service(name).ports).toHaveLength(1);
    },
  );

  it.each(LEADHOOK_SERVICES)(
    '%s sets every setting packages/config reads, and only those, to values it accepts',
    (name) => {
      const environment = service(name).environment ?? {};
      expect(Object.keys(environment).sort()).toEqual([...SETTING_NAMES].sort());
      const resolved = Object.fromEntries(
        Object.entries(environment).map(([k, v]) => [k, unset(String(v))]),
      );
      expect(() => loadConfig(resolved)).not.toThrow();
    },
  );

  it.each(SETTING_NAMES)(
    "passes %s overridable with packages/config's default, or as COMPOSE_OWN_VALUES says",
    (setting) => {
      const own = COMPOSE_OWN_VALUES[setting];
      if (own !== undefined) expect(unset(own)).not.toBe(SETTING_DEFAULTS[setting]);
      for (const name of LEADHOOK_SERVICES) {
        expect({ name, value: service(name).environment?.[setting] }).toEqual({
          name,
          value: own ?? `\${${setting}:-${SETTING_DEFAULTS[setting]}}`,
        });
      }
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
