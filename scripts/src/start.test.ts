import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MIGRATIONS_DIR, readMigrations } from '@leadhook/db';
import { databaseUrl, withAdmin } from '@leadhook/db/testing';
import { ROOT } from './paths.js';
import { buildScripts } from './testing/build.js';

function node(script: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dist', script)], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function logLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(() => buildScripts(), 180_000);

describe('pnpm migrate', () => {
  it('applies the pending migrations, names each, and finds nothing the second time', async () => {
    const name = `leadhook_t_migrate_${randomBytes(5).toString('hex')}`;
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
    try {
      const env = { DATABASE_URL: databaseUrl(name) };
      const first = node('migrate.js', env);
      expect(first.status).toBe(0);
      const applied = logLines(first.stdout)
        .filter((l) => l.msg === 'migration applied')
        .map((l) => l.migration);
      expect(applied).toEqual(readMigrations(MIGRATIONS_DIR).map((m) => m.name));

      const second = node('migrate.js', env);
      expect(second.status).toBe(0);
      expect(logLines(second.stdout)).toEqual([
        expect.objectContaining({ service: 'migrate', msg: 'up to date', applied: 0 }),
      ]);
    } finally {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });

  it('exits 1 when PostgreSQL is unreachable', () => {
    const result = node('migrate.js', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/x' });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/"msg":"migrations failed"/);
  });
});

describe('pnpm start', () => {
  it('exits non-zero, starting nothing, when migrations fail', () => {
    const result = node('start.js', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/x' });
    expect(result.status).toBe(1);
    const lines = logLines(result.stdout);
    expect(lines.map((l) => l.msg)).toEqual(['migrations failed; not starting']);
  });

  it('exits 1 on an invalid setting, naming it', () => {
    const result = node('start.js', { INTAKE_PORT: 'eighty' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('INTAKE_PORT');
  });
});
