import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { HANDLES_SIGNALS, type Logger } from '@leadhook/observability';

/**
 * The process supervisor behind `pnpm start`: runs each service as its own child
 * process (as operators run them, docs/operations.md), prefixes and forwards
 * their output, restarts a child that dies with exponential backoff, and on a
 * signal forwards it and waits, bounded, for every child to drain.
 *
 * Each child runs in a process group of its own, so that a terminal's Ctrl-C
 * (sent to the whole foreground group) reaches the supervisor alone, which
 * passes it on once. A child is sent its stop signal only once it has said, over
 * the IPC channel, that the signal drains it (HANDLES_SIGNALS): before that, the
 * signal would end it without draining. A child that loses the channel (the
 * supervisor was killed) stops by itself (runProcess, packages/observability).
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
  /** Set once the child said that SIGTERM and SIGINT drain it. */
  handlesSignals: boolean;
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
  /** The stop signal, once stop() began: sent to each child as soon as it handles it. */
  private stopSignal: NodeJS.Signals | undefined;

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
    this.stopSignal = signal;
    // The others get it when they say they handle it (spawnChild).
    for (const child of running) {
      if (child.running?.handlesSignals) child.running.process.kill(signal);
    }

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
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // A group of its own: a Ctrl-C at the terminal reaches the supervisor only.
      detached: true,
    });
    const prefix =
      (this.options.prefixLines ?? process.stdout.isTTY === true)
        ? `${spec.name.padEnd(this.prefixWidth)} | `
        : '';
    // Piped above: both exist (the types cannot tell, with an IPC channel in stdio).
    if (proc.stdout) this.forward(proc.stdout, prefix, this.options.stdout ?? process.stdout);
    if (proc.stderr) this.forward(proc.stderr, prefix, this.options.stderr ?? process.stderr);

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
    const running: Running = {
      process: proc,
      startedAt: Date.now(),
      closed,
      handlesSignals: false,
    };
    proc.on('message', (message) => {
      if (message !== HANDLES_SIGNALS || running.handlesSignals) return;
      running.handlesSignals = true;
      if (this.stopSignal) proc.kill(this.stopSignal);
    });
    child.running = running;
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
      // A child that exits non-zero, or is ended by a signal, did not drain cleanly.
      if (code !== 0) child.failedToStop = true;
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
 * How long after the signal that began a stop another one counts as the same
 * request. A terminal's Ctrl-C reaches the supervisor twice: from the terminal
 * (the whole foreground group) and from pnpm, which passes its own SIGINT on to
 * the script it runs (and its next one as SIGTERM); within milliseconds of each
 * other, where a person's second Ctrl-C comes later.
 */
export const SAME_REQUEST_MS = 1000;

/** What a stop signal asks of the supervisor. */
export type SignalAction = 'stop' | 'same' | 'kill';

/**
 * Tells a second request to stop (kill at once) from copies of the first:
 * signals within `sameWithinMs` of the first are copies.
 */
export class StopRequests {
  private firstAt: number | undefined;

  constructor(private readonly sameWithinMs = SAME_REQUEST_MS) {}

  receive(now: number): SignalAction {
    if (this.firstAt === undefined) {
      this.firstAt = now;
      return 'stop';
    }
    return now - this.firstAt < this.sameWithinMs ? 'same' : 'kill';
  }
}

/**
 * Runs a supervisor as the process's main: SIGTERM or SIGINT stops the children
 * and exits with stop()'s code once all have exited; a second request (past
 * SAME_REQUEST_MS) kills them at once.
 */
export function runSupervisor(
  supervisor: Supervisor,
  logger: Logger,
  requests = new StopRequests(),
): void {
  const stop = (signal: NodeJS.Signals) => {
    supervisor.stop(signal).then(
      (code) => process.exit(code),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  const handle = (signal: NodeJS.Signals) => {
    const action = requests.receive(Date.now());
    if (action === 'stop') stop(signal);
    else if (action === 'kill') {
      logger.warn({ signal }, 'second signal: killing children');
      supervisor.kill();
    }
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  // A parent that exits without passing a signal on (pnpm killed with SIGKILL,
  // or a shell left between pnpm and the supervisor) would leave the service
  // running unattended: a changed parent stops it, as a first request only (a
  // stop under way goes on).
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      logger.warn({ parent }, 'parent process exited; stopping');
      if (requests.receive(Date.now()) === 'stop') stop('SIGTERM');
    }
  }, 500);
  watch.unref();
  supervisor.start();
}
