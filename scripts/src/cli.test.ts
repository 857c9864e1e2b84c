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
    expect(result.stdout).toContain('account list');
    expect(result.stdout).toContain('account rotate-key ID');
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

/** Runs the CLI on the test database and parses its one line of JSON. */
function leadhookJson<T>(args: string[]): T {
  const result = leadhook(args, { DATABASE_URL: empty.url });
  expect([args, result.status, result.stderr]).toEqual([args, 0, '']);
  expect(result.stdout.split('\n')).toHaveLength(2);
  return JSON.parse(result.stdout) as T;
}

describe('pnpm leadhook account list / rotate-key (an owner who lost the API key)', () => {
  it('lists every account with its id, name and creation time, oldest first', () => {
    const first = leadhookJson<{ account_id: string }>(['account', 'create', 'Listed One']);
    const second = leadhookJson<{ account_id: string }>(['account', 'create', 'Listed Two']);
    const listed = leadhookJson<{ id: string; name: string; created_at: string }[]>([
      'account',
      'list',
    ]);
    for (const account of listed) {
      expect(Object.keys(account).sort()).toEqual(['created_at', 'id', 'name']);
      expect(new Date(account.created_at).toISOString()).toBe(account.created_at);
    }
    const ours = listed.filter((a) => a.name.startsWith('Listed '));
    expect(ours.map((a) => [a.id, a.name])).toEqual([
      [first.account_id, 'Listed One'],
      [second.account_id, 'Listed Two'],
    ]);
  });

  it('rotate-key issues a new key, printed like account create, and revokes the old one', async () => {
    const created = leadhookJson<{ account_id: string; api_key: string }>([
      'account',
      'create',
      'Lost Key',
    ]);
    const rotated = leadhookJson<{ account_id: string; api_key: string }>([
      'account',
      'rotate-key',
      created.account_id,
    ]);
    expect(rotated).toEqual({
      account_id: created.account_id,
      api_key: expect.stringMatching(/^lh_[A-Za-z0-9_-]{43}$/),
    });
    expect(rotated.api_key).not.toBe(created.api_key);
    expect(await keyRow(empty.url, rotated.api_key)).toEqual([
      { account_id: created.account_id, name: 'Lost Key', revoked_at: null },
    ]);
    // The old key stops working: the API refuses a revoked key.
    expect(await keyRow(empty.url, created.api_key)).toEqual([
      { account_id: created.account_id, name: 'Lost Key', revoked_at: expect.any(Date) },
    ]);
  });

  it('rotate-key of an unknown account says so on stderr and exits 1, printing nothing', () => {
    const result = leadhook(['account', 'rotate-key', 'acc_00000000000000000000000000'], {
      DATABASE_URL: empty.url,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no account with id "acc_00000000000000000000000000"/);
  });

  it.each([
    [['account', 'rotate-key'], /needs one account ID/],
    [['account', 'rotate-key', 'a', 'b'], /needs one account ID/],
    [['account', 'list', 'x'], /takes no argument/],
  ])('refuses %j with usage on stderr and exit 2', (args, message) => {
    const result = leadhook(args, { DATABASE_URL: empty.url });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});

describe('pnpm leadhook api-key create (a named key beside the others)', () => {
  it('prints the new key with its id and name once; the account keeps its first key', async () => {
    const created = leadhookJson<{ account_id: string; api_key: string }>([
      'account',
      'create',
      'Two Keys',
    ]);
    const key = leadhookJson<Record<string, string>>([
      'api-key',
      'create',
      '--account',
      created.account_id,
      '--name',
      '  Zapier  ',
    ]);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9a-z]{26}$/),
      name: 'Zapier',
      api_key: expect.stringMatching(/^lh_[A-Za-z0-9_-]{43}$/),
      prefix: key.api_key?.slice(0, 9),
      account_id: created.account_id,
      created_at: expect.any(String),
    });
    expect(new Date(key.created_at ?? '').toISOString()).toBe(key.created_at);
    expect(await keyRow(empty.url, key.api_key ?? '')).toEqual([
      { account_id: created.account_id, name: 'Two Keys', revoked_at: null },
    ]);
    expect(await keyRow(empty.url, created.api_key)).toEqual([
      { account_id: created.account_id, name: 'Two Keys', revoked_at: null },
    ]);
  });

  it('of an unknown account says so on stderr and exits 1, printing nothing', () => {
    const result = leadhook(
      ['api-key', 'create', '--account=acc_00000000000000000000000000', '--name=x'],
      { DATABASE_URL: empty.url },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no account with id "acc_00000000000000000000000000"/);
  });
});

describe('parseArgs', () => {
  it.each([
    [['account', 'create', '  Acme  '], { kind: 'account-create', name: 'Acme' }],
    [['help'], { kind: 'help' }],
    [['account', 'create', 'x', '-h'], { kind: 'help' }],
    [['account', 'list'], { kind: 'account-list' }],
    [['account', 'rotate-key', 'acc_1'], { kind: 'account-rotate-key', accountId: 'acc_1' }],
    [
      ['api-key', 'create', '--name', ' Zap ', '--account', 'acc_1'],
      { kind: 'api-key-create', accountId: 'acc_1', name: 'Zap' },
    ],
    [
      ['api-key', 'create', '--account=acc_1', '--name=Make'],
      { kind: 'api-key-create', accountId: 'acc_1', name: 'Make' },
    ],
  ])('%j → %j', (args, command) => {
    expect(parseArgs(args)).toEqual(command);
  });
  it.each([
    [['account', 'create', '   ']],
    [['account', 'create', 'x'.repeat(MAX_ACCOUNT_NAME_LENGTH + 1)]],
    [['account', 'create', '--force', 'x']],
    // Text PostgreSQL cannot store (a shell cannot pass a NUL, but a caller of parseArgs can).
    [['account', 'create', 'Acme\u0000']],
    [['account', 'create', 'Acme \ud800']],
    [['api-key']],
    [['api-key', 'list']],
    [['api-key', 'create', '--account', 'acc_1']],
    [['api-key', 'create', '--name', 'x']],
    [['api-key', 'create', '--account', 'acc_1', '--name', '  ']],
    [['api-key', 'create', '--account', 'acc_1', '--name', 'x'.repeat(101)]],
    [['api-key', 'create', '--account', 'acc_1', '--name', 'x', '--force']],
    [['api-key', 'create', '--account', 'acc_1', '--name']],
  ])('refuses %j', (args) => {
    expect(parseArgs(args).kind).toBe('usage-error');
  });
});
