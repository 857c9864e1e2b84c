import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '@leadhook/observability';

/**
 * The process supervisor behind `pnpm start`: runs each service as its own child
 * process (as operators run them: docs/operations.md), prefixes and forwards their
 * output, restarts a child that dies with exponential backoff, and on a signal
 * forwards it and waits, bounded, for every child to drain.
 */

export interface ChildSpec {
  /** The prefix of its output lines and its name in the supervisor's logs. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

export interface BackoffOptions {
  /** Delay before the first restart after a crash. */
  readonly initialMs: number;
  /** The delay doubles with each consecutive crash up to this. */
  readonly maxMs: number;
  /** A child that stayed up this long counts as healthy: its next crash starts over. */
  readonly resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 500,
  maxMs: 30_000,
  resetAfterMs: 60_000,
};

/** The delay before restarting after the n-th consecutive crash (n ≥ 1). */
export function restartDelayMs(consecutiveCrashes: number, backoff: BackoffOptions): number {
  const exponent = Math.max(0, consecutiveCrashes - 1);
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(exponent, 30));
}

/** The consecutive-crash count after a child that ran `uptimeMs` died. */
export function nextCrashCount(
  previous: number,
  uptimeMs: number,
  backoff: BackoffOptions,
): number {
  return uptimeMs >= backoff.resetAfterMs ? 1 : previous + 1;
}

export interface SupervisorOptions {
  readonly children: readonly ChildSpec[];
  readonly logger: Logger;
  /**
   * How long children get to drain after the signal before they are killed.
   * Give them more than their own shutdown bound, so they exit by themselves.
   */
  readonly stopTimeoutMs: number;
  readonly backoff?: Partial<BackoffOptions>;
  /** Where children's stdout and stderr lines go; process.stdout/stderr by default. */
  readonly stdout?: Writable;
  readonly stderr?: Writable;
  /**
   * Prefix each line with the child's name. For a person at a terminal; off where
   * a log shipper reads the output, which must stay one JSON object per line
   * (each already names its `service`). Default: whether stdout is a TTY.
   */
  readonly prefixLines?: boolean;
}

interface Running {
  readonly process: ChildProcess;
  readonly startedAt: number;
  /** Resolves when the process has exited and its output is flushed. */
  readonly closed: Promise<void>;
}

interface ChildState {
  readonly spec: ChildSpec;
  running: Running | undefined;
  crashes: number;
  restartTimer: NodeJS.Timeout | undefined;
  /** True when a child did not exit cleanly on the stop signal. */
  failedToStop: boolean;
}

export class Supervisor {
  private readonly children: ChildState[];
  private readonly backoff: BackoffOptions;
  private readonly prefixWidth: number;
  private stopping: Promise<number> | undefined;

  constructor(private readonly options: SupervisorOptions) {
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.children = options.children.map((spec) => ({
      spec,
      running: undefined,
      crashes: 0,
      restartTimer: undefined,
      failedToStop: false,
    }));
    this.prefixWidth = Math.max(...options.children.map((c) => c.name.length));
  }

  /** Starts every child. */
  start(): void {
    for (const child of this.children) this.spawnChild(child);
  }

  /** The pid of each child running now (undefined while it waits for a restart). */
  pids(): Record<string, number | undefined> {
    return Object.fromEntries(this.children.map((c) => [c.spec.name, c.running?.process.pid]));
  }

  /**
   * Forwards `signal` to every child, waits up to stopTimeoutMs for them to exit,
   * then kills the rest. Resolves with the exit code the supervisor should use:
   * 0 when every child stopped cleanly, 1 otherwise. Idempotent.
   */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number> {
    this.stopping ??= this.stopAll(signal);
    return this.stopping;
  }

  /** Kills every child at once (a second Ctrl-C). */
  kill(): void {
    for (const child of this.children) {
      if (child.running) {
        child.failedToStop = true;
        child.running.process.kill('SIGKILL');
      }
    }
  }

  private async stopAll(signal: NodeJS.Signals): Promise<number> {
    const { logger, stopTimeoutMs } = this.options;
    for (const child of this.children) {
      clearTimeout(child.restartTimer);
      child.restartTimer = undefined;
    }
    const running = this.children.filter((c) => c.running);
    logger.info({ signal, children: running.length, timeout_ms: stopTimeoutMs }, 'stopping');
    for (const child of running) child.running?.process.kill(signal);

    const closed = Promise.all(running.map((c) => c.running?.closed));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), stopTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      for (const child of this.children) {
        if (!child.running) continue;
        logger.error(
          { child: child.spec.name, timeout_ms: stopTimeoutMs },
          'did not stop; killing',
        );
        child.failedToStop = true;
        child.running.process.kill('SIGKILL');
      }
      await closed;
    }
    const failed = this.children.filter((c) => c.failedToStop).map((c) => c.spec.name);
    logger.info({ failed }, 'stopped');
    return failed.length > 0 ? 1 : 0;
  }

  private spawnChild(child: ChildState): void {
    const { spec } = child;
    const proc = spawn(spec.command, [...spec.args], {
      env: spec.env ?? process.env,
      cwd: spec.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix =
      (this.options.prefixLines ?? process.stdout.isTTY === true)
        ? `${spec.name.padEnd(this.prefixWidth)} | `
        : '';
    this.forward(proc.stdout, prefix, this.options.stdout ?? process.stdout);
    this.forward(proc.stderr, prefix, this.options.stderr ?? process.stderr);

    const closed = new Promise<void>((resolve) => {
      let done = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null, err?: Error) => {
        if (done) return;
        done = true;
        this.onExit(child, code, signal, err);
        resolve();
      };
      // 'close' waits for the child's output to be flushed; 'error' alone is
      // emitted when the process could not be spawned at all.
      proc.once('close', (code, signal) => finish(code, signal));
      proc.once('error', (err) => {
        if (proc.pid === undefined) finish(null, null, err);
      });
    });
    child.running = { process: proc, startedAt: Date.now(), closed };
    this.options.logger.info({ child: spec.name, pid: proc.pid }, 'started');
  }

  private onExit(
    child: ChildState,
    code: number | null,
    signal: NodeJS.Signals | null,
    err: Error | undefined,
  ): void {
    const { logger } = this.options;
    const uptimeMs = Date.now() - (child.running?.startedAt ?? Date.now());
    child.running = undefined;
    if (this.stopping) {
      // A child that exits non-zero on the stop signal did not drain cleanly.
      if (code !== null && code !== 0) child.failedToStop = true;
      logger.info({ child: child.spec.name, code, signal }, 'exited');
      return;
    }
    child.crashes = nextCrashCount(child.crashes, uptimeMs, this.backoff);
    const delay = restartDelayMs(child.crashes, this.backoff);
    logger.error(
      {
        child: child.spec.name,
        code,
        signal,
        err: err?.message,
        uptime_ms: uptimeMs,
        restart_in_ms: delay,
      },
      'child exited; restarting',
    );
    child.restartTimer = setTimeout(() => {
      child.restartTimer = undefined;
      if (!this.stopping) this.spawnChild(child);
    }, delay);
  }

  private forward(stream: Readable, prefix: string, to: Writable): void {
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      to.write(`${prefix}${line}\n`);
    });
  }
}

/**
 * Runs a supervisor as the process's main: SIGTERM or SIGINT stops the children
 * and exits with stop()'s code; a second signal kills them at once.
 */
export function runSupervisor(supervisor: Supervisor, logger: Logger): void {
  let signals = 0;
  const handle = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: killing children');
      supervisor.kill();
      return;
    }
    supervisor.stop(signal).then(
      (code) => process.exit(code),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  // `pnpm start` is our parent, and pnpm exits on SIGTERM without passing it on:
  // we would be re-parented and run on, children and all. A changed parent is
  // taken as that SIGTERM, so stopping pnpm stops the whole service.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      logger.warn({ parent }, 'parent process exited; stopping');
      handle('SIGTERM');
    }
  }, 500);
  watch.unref();
  supervisor.start();
}
