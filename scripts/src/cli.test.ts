import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createPrisma } from '@leadhook/db';
import { databaseUrl, withAdmin } from '@leadhook/db/testing';
import { MAX_ACCOUNT_NAME_LENGTH, parseArgs } from './cli.js';
import { ROOT } from './paths.js';
import { buildScripts } from './testing/build.js';

const CLI = join(ROOT, 'scripts', 'dist', 'leadhook.js');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string> = {}): Run {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function leadhook(args: string[], env: Record<string, string> = {}): Run {
  return run(process.execPath, ['--no-warnings', CLI, ...args], env);
}

/** An empty database: the CLI must apply the migrations itself. */
let empty: { name: string; url: string };

beforeAll(async () => {
  buildScripts();
  const name = `leadhook_t_cli_${randomBytes(5).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  empty = { name, url: databaseUrl(name) };
}, 180_000);

afterAll(async () => {
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${empty.name}" WITH (FORCE)`));
});

/** The stored key whose hash is sha256(apiKey), with its account. */
async function keyRow(url: string, apiKey: string) {
  const prisma = createPrisma({ databaseUrl: url, poolMax: 1 });
  try {
    const keys = await prisma.apiKey.findMany({
      where: { keyHash: createHash('sha256').update(apiKey).digest('hex') },
      include: { account: true },
    });
    return keys.map((k) => ({
      account_id: k.accountId,
      name: k.account.name,
      revoked_at: k.revokedAt,
    }));
  } finally {
    await prisma.$disconnect();
  }
}

describe('pnpm leadhook account create', () => {
  it('migrates quietly and prints exactly one JSON line whose key is stored hashed', async () => {
    const result = leadhook(['account', 'create', 'Acme Leads'], { DATABASE_URL: empty.url });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const created: unknown = JSON.parse(lines[0] ?? '');
    expect(created).toEqual({
      account_id: expect.stringMatching(/^acc_[0-9a-z]{26}$/),
      api_key: expect.stringMatching(/^lh_[A-Za-z0-9_-]{43}$/),
    });
    const { account_id, api_key } = created as { account_id: string; api_key: string };
    expect(await keyRow(empty.url, api_key)).toEqual([
      { account_id, name: 'Acme Leads', revoked_at: null },
    ]);
  });

  it('prints only that line through `pnpm leadhook` (the README command)', async () => {
    const result = run('pnpm', ['leadhook', 'account', 'create', 'Via pnpm'], {
      DATABASE_URL: empty.url,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\{"account_id":"acc_[0-9a-z]{26}","api_key":"lh_[^"]+"\}\n$/);
    const { api_key } = JSON.parse(result.stdout) as { api_key: string };
    expect(await keyRow(empty.url, api_key)).toHaveLength(1);
  });

  it.each([
    [[], /no command given/],
    [['account'], /account needs a subcommand/],
    [['account', 'create'], /needs a NAME/],
    [['account', 'create', 'Acme', 'Leads'], /quote it/],
    [['accounts', 'list'], /unknown command "accounts"/],
  ])('refuses %j with usage on stderr and exit 2', (args, message) => {
    const result = leadhook(args, { DATABASE_URL: empty.url });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: pnpm leadhook');
  });

  it('shows help on --help with exit 0', () => {
    const result = leadhook(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('account create NAME');
  });

  it('fails with a message on stderr when PostgreSQL is unreachable', () => {
    const result = leadhook(['account', 'create', 'Acme'], {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/leadhook',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/PostgreSQL is unreachable/);
  });
});

describe('parseArgs', () => {
  it.each([
    [['account', 'create', '  Acme  '], { kind: 'account-create', name: 'Acme' }],
    [['help'], { kind: 'help' }],
    [['account', 'create', 'x', '-h'], { kind: 'help' }],
  ])('%j → %j', (args, command) => {
    expect(parseArgs(args)).toEqual(command);
  });
  it.each([
    [['account', 'create', '   ']],
    [['account', 'create', 'x'.repeat(MAX_ACCOUNT_NAME_LENGTH + 1)]],
    [['account', 'create', '--force', 'x']],
  ])('refuses %j', (args) => {
    expect(parseArgs(args).kind).toBe('usage-error');
  });
});
