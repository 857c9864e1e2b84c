import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { databaseUrl, withAdmin } from '@leadhook/db/testing';
import { ROOT } from './paths.js';

/** scripts/bootstrap.sh's database step: the database DATABASE_URL names, not always leadhook. */

function run(command: string, args: string[], databaseUrlSetting: string | undefined) {
  const env = { ...process.env };
  if (databaseUrlSetting === undefined) delete env.DATABASE_URL;
  else env.DATABASE_URL = databaseUrlSetting;
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', env, timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/database-url.mjs', () => {
  const parse = (setting: string | undefined) =>
    run(process.execPath, [join(ROOT, 'scripts', 'database-url.mjs')], setting);

  it.each([
    [
      'unset: the services default',
      undefined,
      'leadhook\npostgresql://postgres@127.0.0.1:5432/postgres\n',
    ],
    [
      'another database',
      'postgresql://postgres@127.0.0.1:5432/crm_leads',
      'crm_leads\npostgresql://postgres@127.0.0.1:5432/postgres\n',
    ],
    [
      'credentials and parameters kept',
      'postgres://app:s3cret@db.internal:6543/leads?sslmode=require',
      'leads\npostgres://app:s3cret@db.internal:6543/postgres?sslmode=require\n',
    ],
    [
      'a percent-encoded name',
      'postgresql://postgres@127.0.0.1/lead%20hook',
      'lead hook\npostgresql://postgres@127.0.0.1/postgres\n',
    ],
  ])('%s', (_case, setting, expected) => {
    expect(parse(setting)).toEqual({ status: 0, stdout: expected, stderr: '' });
  });

  it.each([
    ['not a URL', 'leadhook'],
    ['not PostgreSQL', 'mysql://root:s3cret@127.0.0.1/leadhook'],
    ['no database', 'postgresql://postgres:s3cret@127.0.0.1:5432/'],
  ])('refuses %s, naming the setting and not its password', (_case, setting) => {
    const result = parse(setting);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^DATABASE_URL: /);
    expect(result.stderr).not.toContain('s3cret');
  });
});

describe('scripts/create-database.sh', () => {
  it('creates the database DATABASE_URL names, and finds it there the second time', async () => {
    const name = `leadhook_t_bootstrap_${randomBytes(5).toString('hex')}`;
    const exists = () =>
      withAdmin(async (admin) => {
        const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
          name,
        ]);
        return rowCount === 1;
      });
    const create = () =>
      run('bash', [join(ROOT, 'scripts', 'create-database.sh')], databaseUrl(name));
    try {
      expect(await exists()).toBe(false);
      expect(create()).toEqual({
        status: 0,
        stdout: `bootstrap: creating database ${name}\n`,
        stderr: '',
      });
      expect(await exists()).toBe(true);
      expect(create()).toEqual({
        status: 0,
        stdout: `bootstrap: database ${name} exists\n`,
        stderr: '',
      });
    } finally {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });
});
