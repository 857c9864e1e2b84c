import { type ChildProcess, spawn } from 'node:child_process';
import { createRedis } from '@leadhook/queue';
import { freePort, waitFor } from './wait.js';

/**
 * A throwaway redis-server on its own port that keeps nothing on disk, like the
 * operators' (docs/operations.md): for tests that take Redis away, since the machine's
 * Redis is shared with other test runs and is never stopped.
 */
export class PrivateRedis {
  private process: ChildProcess | undefined;
  constructor(readonly port: number) {}

  /** One on a free port, started. */
  static async onFreePort(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    const child = this.process;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts it (again, empty; nothing when it runs) and resolves once it answers PING. */
  async start(): Promise<void> {
    if (this.running) return;
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const probe = createRedis(this.url);
    try {
      await waitFor(async () => (await probe.ping().catch(() => undefined)) === 'PONG', 30_000);
    } finally {
      probe.disconnect();
    }
  }

  /** Kills it: whatever it held is gone (no persistence). */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.process = undefined;
  }
}
