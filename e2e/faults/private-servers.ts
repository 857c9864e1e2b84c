import { execFile, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Servers a fault test may stop: the machine's PostgreSQL and Redis are shared
 * with other test runs and are never stopped, so a test that takes one away
 * starts its own (Redis: PrivateRedis of @leadhook/testkit, which
 * the services' own outage tests use too).
 */

const execFileAsync = promisify(execFile);
const PG_BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/**
 * A private PostgreSQL cluster in a temporary directory on its own port, with
 * fsync off (it is thrown away; a stopped server still keeps every commit it
 * acknowledged: the operating system holds the files). PostgreSQL refuses to run as root: as root, its
 * commands run as the `postgres` user.
 */
export class PrivatePostgres {
  readonly dir: string;
  private readonly asRoot = process.getuid?.() === 0;

  constructor(readonly port: number) {
    this.dir = mkdtempSync(join(tmpdir(), 'leadhook-pg-'));
    if (this.asRoot) {
      const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      chownSync(this.dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
    }
  }

  /** The cluster's own `postgres` database. */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Runs a PostgreSQL program without blocking the event loop (load runs meanwhile). */
  private async run(binary: string, args: string[]): Promise<void> {
    const [command, argv] = this.asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, binary), ...args]]
      : [join(PG_BIN, binary), args];
    try {
      await execFileAsync(command, argv, { encoding: 'utf8', cwd: tmpdir() });
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      throw new Error(`${binary} ${args.join(' ')} failed:\n${stdout}${stderr}`);
    }
  }

  init(): Promise<void> {
    return this.run('initdb', [
      '-D',
      join(this.dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '--no-locale',
      '-E',
      'UTF8',
    ]);
  }

  start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c max_connections=200',
    ].join(' ');
    return this.run('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Stops it; `fast` ends every session at once, as an operator's restart does. */
  stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    return this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /** Stops it if it runs and removes its files. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => {
      // Not running.
    });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
