import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MIGRATIONS_DIR, migrate } from '@leadhook/db';
import { freePort, waitFor } from '@leadhook/testkit';
import pg from 'pg';

const run = promisify(execFile);

/** Where Debian and Ubuntu install the server's programs, one folder per major version. */
const POSTGRES_LIB = '/usr/lib/postgresql';

/** The newest installed server's bin folder (PG_BIN_DIR overrides). */
async function binDir(): Promise<string> {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const versions = (await readdir(POSTGRES_LIB)).filter((v) => /^\d+$/.test(v)).map(Number);
  if (versions.length === 0) throw new Error(`no PostgreSQL server under ${POSTGRES_LIB}`);
  return join(POSTGRES_LIB, String(Math.max(...versions)), 'bin');
}

/**
 * PostgreSQL's server programs refuse to run as root: as root, they run as the
 * `postgres` account (the Debian package's), and own the folder they write in.
 */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const line = (await readFile('/etc/passwd', 'utf8'))
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error('running as root, and there is no postgres account to run the server as');
  }
  return { uid: Number(uid), gid: Number(gid) };
}

/** The server's settings for a throwaway cluster: loopback only, nothing synced to disk. */
function serverArgs(dataDir: string, socketDir: string, port: number): string[] {
  return [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    socketDir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ];
}

/**
 * A PostgreSQL primary and a streaming replica of it (`pg_basebackup -R -X
 * stream`), both of this test file's own, on free loopback ports. The machine's
 * cluster is shared with every other test run and takes no replication
 * connection (its pg_hba.conf has no `replication` line): a cluster of its own
 * can be told to, and can lag, pause and stop without disturbing anyone.
 * The primary holds one migrated database, `leadhook`, that the replica copies.
 */
export class ReplicatedPostgres {
  private readonly servers: ChildProcess[] = [];
  private replica: ChildProcess | undefined;

  private constructor(
    private readonly dir: string,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  /** Creates, migrates and starts both; stops and removes everything if any step fails. */
  static async start(): Promise<ReplicatedPostgres> {
    const dir = await mkdtemp(join(tmpdir(), 'leadhook-replica-'));
    const cluster = new ReplicatedPostgres(dir, await freePort(), await freePort());
    try {
      await cluster.init();
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  get primaryUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.primaryPort}/leadhook`;
  }

  get replicaUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.replicaPort}/leadhook`;
  }

  /** Runs `sql` on the replica (pause and resume replay, ask its state). */
  async onReplica<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.replicaUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  /** Kills the replica (the primary keeps running): a replica outage. */
  async stopReplica(): Promise<void> {
    if (this.replica) await kill(this.replica);
  }

  /** Kills both servers and removes their folders; safe to call twice. */
  async stop(): Promise<void> {
    await Promise.all(this.servers.map(kill));
    await rm(this.dir, { recursive: true, force: true });
  }

  private async init(): Promise<void> {
    const bin = await binDir();
    const user = await serverUser();
    if (user) await chown(this.dir, user.uid, user.gid);
    const program = (name: string, args: string[]) =>
      run(join(bin, name), args, { ...user, cwd: this.dir });
    const primaryDir = join(this.dir, 'primary');
    const replicaDir = join(this.dir, 'replica');
    // initdb's pg_hba.conf trusts replication connections from 127.0.0.1. UTF-8
    // text and C.UTF-8 case rules, as the machine's cluster (lower() of an email).
    await program('initdb', [
      ...['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync'],
      ...['-E', 'UTF8', '--locale', 'C.UTF-8'],
    ]);
    this.launch(bin, user, serverArgs(primaryDir, this.dir, this.primaryPort));
    await answers(`postgresql://postgres@127.0.0.1:${this.primaryPort}/postgres`);
    const admin = new pg.Client({
      connectionString: `postgresql://postgres@127.0.0.1:${this.primaryPort}/postgres`,
    });
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE leadhook');
    } finally {
      await admin.end();
    }
    await migrate({ databaseUrl: this.primaryUrl, migrationsDir: MIGRATIONS_DIR });
    // -R writes primary_conninfo and standby.signal: the copy starts as a standby
    // streaming from the primary. -c fast: no wait for a spread checkpoint.
    await program('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(this.primaryPort), '-U', 'postgres'],
      ...['-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    this.replica = this.launch(bin, user, serverArgs(replicaDir, this.dir, this.replicaPort));
    await answers(this.replicaUrl);
  }

  private launch(
    bin: string,
    user: { uid: number; gid: number } | undefined,
    args: string[],
  ): ChildProcess {
    const server = spawn(join(bin, 'postgres'), args, { ...user, stdio: 'ignore' });
    this.servers.push(server);
    return server;
  }
}

/** Resolves once a server accepts connections at `url`. */
async function answers(url: string): Promise<void> {
  await waitFor(
    async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.end();
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 100, retryErrors: true },
  );
}

/** SIGQUIT (PostgreSQL's immediate shutdown), then SIGKILL if it lingers; resolves once it exited. */
async function kill(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGQUIT');
  const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
