import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createLogger, HANDLES_SIGNALS } from '@leadhook/observability';
import { waitFor } from '@leadhook/testkit';
import { ROOT } from './paths.js';
import {
  type BackoffOptions,
  type ChildSpec,
  nextCrashCount,
  restartDelayMs,
  SAME_REQUEST_MS,
  StopRequests,
  Supervisor,
} from './supervisor.js';
import { buildScripts } from './testing/build.js';

// Small fake services, so these tests do not depend on the real ones: each prints
// "ready <name> <pid>"; `handleAfterMs` later (a service loading its modules) it
// handles SIGTERM and SIGINT and says so to the supervisor, as runProcess does
// (packages/observability). Each signal it gets prints "signal <name> <SIG>"; the
// first prints "draining <name> <pid>", and it exits 0 `drainMs` later.
const dir = mkdtempSync(join(tmpdir(), 'leadhook-supervisor-'));
const FAKE = join(dir, 'fake.mjs');
writeFileSync(
  FAKE,
  `const [name, handleAfterMs = '0', drainMs = '0'] = process.argv.slice(2);
console.log('ready ' + name + ' ' + process.pid);
let draining = false;
const onSignal = (signal) => {
  console.log('signal ' + name + ' ' + signal);
  if (draining) return;
  draining = true;
  // Exit once the line is written: a pipe write is asynchronous, and exit() drops
  // what is still pending.
  process.stdout.write('draining ' + name + ' ' + process.pid + '\\n', () =>
    setTimeout(() => process.exit(0), Number(drainMs)),
  );
};
setTimeout(() => {
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  if (process.send) {
    process.channel.unref();
    process.send(${JSON.stringify(HANDLES_SIGNALS)});
  }
}, Number(handleAfterMs));
setInterval(() => {}, 1000);
`,
);
const STUBBORN = join(dir, 'stubborn.mjs');
writeFileSync(
  STUBBORN,
  `process.on('SIGTERM', () => console.error('ignoring SIGTERM'));
process.send(${JSON.stringify(HANDLES_SIGNALS)});
console.log('ready stubborn ' + process.pid);
setInterval(() => {}, 1000);
`,
);

const silent = createLogger({ service: 'supervisor', level: 'silent' });
const fast: Partial<BackoffOptions> = { initialMs: 50, maxMs: 500, resetAfterMs: 60_000 };

class Sink extends Writable {
  text = '';
  /** When each chunk (one forwarded line) arrived. */
  readonly lines: Array<{ at: number; line: string }> = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    this.lines.push({ at: Date.now(), line: chunk.toString().trimEnd() });
    done();
  }
}

function fake(name: string, script = FAKE, ...rest: string[]): ChildSpec {
  return { name, command: process.execPath, args: [script, name, ...rest] };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const supervisors: Supervisor[] = [];
afterEach(async () => {
  for (const s of supervisors.splice(0)) s.kill();
});

function supervise(children: ChildSpec[], stopTimeoutMs = 5000, prefixLines = true) {
  const out = new Sink();
  const err = new Sink();
  const supervisor = new Supervisor({
    children,
    logger: silent,
    stopTimeoutMs,
    backoff: fast,
    stdout: out,
    stderr: err,
    prefixLines,
  });
  supervisors.push(supervisor);
  supervisor.start();
  return { supervisor, out, err };
}

describe('Supervisor', () => {
  it('restarts a child killed with SIGKILL, then stops all children on SIGTERM', async () => {
    const { supervisor, out } = supervise([fake('api'), fake('playbook-worker')]);
    const first = await waitFor(() => {
      const { api } = supervisor.pids();
      return api !== undefined && out.text.includes(`ready api ${api}`) ? api : undefined;
    });
    process.kill(first, 'SIGKILL');
    const second = await waitFor(() => {
      const { api } = supervisor.pids();
      return api !== undefined && api !== first && out.text.includes(`ready api ${api}`)
        ? api
        : undefined;
    });
    const other = supervisor.pids()['playbook-worker'];
    expect(other).toBeDefined();
    // Output is forwarded line by line, prefixed with the padded child name.
    expect(out.text).toMatch(new RegExp(`^api             \\| ready api ${second}$`, 'm'));
    expect(out.text).toMatch(/^playbook-worker \| ready playbook-worker \d+$/m);

    expect(await supervisor.stop('SIGTERM')).toBe(0);
    expect(out.text).toContain(`draining api ${second}`);
    expect(out.text).toContain(`draining playbook-worker ${other}`);
    expect(alive(second)).toBe(false);
    expect(alive(other ?? 0)).toBe(false);
    expect(supervisor.pids()).toEqual({ api: undefined, 'playbook-worker': undefined });
  });

  it('forwards lines untouched when not prefixing (JSON lines for a log shipper)', async () => {
    const { supervisor, out } = supervise([fake('api')], 5000, false);
    const pid = await waitFor(() => {
      const { api } = supervisor.pids();
      return api !== undefined && out.text.includes(`ready api ${api}`) ? api : undefined;
    });
    expect(out.text).toMatch(new RegExp(`^ready api ${pid}$`, 'm'));
    expect(await supervisor.stop('SIGTERM')).toBe(0);
  });

  it('holds the stop signal back until a child handles it: stopped while it starts, it drains', async () => {
    // The child handles signals only 500 ms after it printed "ready", as a
    // service does while it loads its modules; the stop comes before that.
    const { supervisor, out } = supervise([fake('api', FAKE, '500')]);
    await waitFor(() => (out.text.includes('ready api') ? true : undefined));
    expect(await supervisor.stop('SIGTERM')).toBe(0);
    expect(out.text).toMatch(/^api \| draining api \d+$/m);
    expect(out.text.match(/signal api SIGTERM/g)).toHaveLength(1);
  });

  it('kills a child that does not stop within the bound, and reports failure', async () => {
    const { supervisor, out, err } = supervise([fake('api'), fake('stubborn', STUBBORN)], 300);
    const pid = await waitFor(() => {
      const { stubborn } = supervisor.pids();
      return stubborn !== undefined && out.text.includes(`ready stubborn ${stubborn}`)
        ? stubborn
        : undefined;
    });
    const started = Date.now();
    expect(await supervisor.stop('SIGTERM')).toBe(1);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err.text).toContain('stubborn | ignoring SIGTERM');
    expect(alive(pid)).toBe(false);
  });

  it('backs off a crash loop and does not restart once stopping', async () => {
    const crash = join(dir, 'crash.mjs');
    writeFileSync(crash, "console.log('up'); process.exit(3);\n");
    const { supervisor, out } = supervise([fake('crashy', crash)]);
    const starts = () => out.lines.filter((l) => l.line === 'crashy | up').map((l) => l.at);
    const times = await waitFor(() => (starts().length >= 5 ? starts() : undefined));
    // Delays of 50, 100, 200, 400 ms between crashes: each gap at least its delay
    // (a slow machine only widens them), and the last ones clearly wider.
    const gaps = times.slice(1, 5).map((t, i) => t - (times[i] ?? 0));
    expect(gaps[2]).toBeGreaterThanOrEqual(200);
    expect(gaps[3]).toBeGreaterThanOrEqual(400);
    // The child may crash (exit 3) in the instant the stop is sent, which stop()
    // rightly reports as 1; what this test holds is that nothing restarts after.
    expect([0, 1]).toContain(await supervisor.stop());
    const stoppedAt = starts().length;
    await new Promise((r) => setTimeout(r, 700));
    expect(starts().length).toBe(stoppedAt);
  });
});

describe('restart backoff', () => {
  const backoff: BackoffOptions = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };
  it.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [7, 30_000],
    [100, 30_000],
  ])('crash %d waits %d ms', (crashes, delay) => {
    expect(restartDelayMs(crashes, backoff)).toBe(delay);
  });
  it('counts consecutive crashes, and starts over after a long enough run', () => {
    expect(nextCrashCount(0, 10, backoff)).toBe(1);
    expect(nextCrashCount(4, 59_999, backoff)).toBe(5);
    expect(nextCrashCount(4, 60_000, backoff)).toBe(1);
  });
});

describe('StopRequests', () => {
  // A copy: the terminal and pnpm each deliver the same Ctrl-C.
  it.each([
    [999, 'same'],
    [1000, 'kill'],
  ])('after a first signal at t=0, one at t=%d is %s', (at, action) => {
    const requests = new StopRequests(1000);
    expect(requests.receive(0)).toBe('stop');
    expect(requests.receive(at)).toBe(action);
  });
  it('counts from the first signal, not the latest copy', () => {
    const requests = new StopRequests(1000);
    requests.receive(0);
    expect(requests.receive(600)).toBe('same');
    expect(requests.receive(1200)).toBe('kill');
  });
});

describe('runSupervisor (the process behind pnpm start)', () => {
  beforeAll(() => buildScripts(), 180_000);

  /**
   * Runs runSupervisor over fake children (each `[name, ...fake args]`) in a
   * process group of its own, as pnpm runs it in a terminal's foreground group.
   */
  function runEntry(children: string[][]) {
    const entry = join(dir, `entry-${randomBytes(4).toString('hex')}.mjs`);
    const supervisorUrl = pathToFileURL(join(ROOT, 'scripts', 'dist', 'supervisor.js')).href;
    const observabilityUrl = pathToFileURL(
      join(ROOT, 'packages', 'observability', 'dist', 'index.js'),
    ).href;
    writeFileSync(
      entry,
      `import { Supervisor, runSupervisor } from ${JSON.stringify(supervisorUrl)};
import { createLogger } from ${JSON.stringify(observabilityUrl)};
const logger = createLogger({ service: 'supervisor', level: 'info', destination: process.stderr });
const children = ${JSON.stringify(children)}.map(([name, ...args]) => ({
  name, command: process.execPath, args: [${JSON.stringify(FAKE)}, name, ...args],
}));
runSupervisor(new Supervisor({ children, logger, stopTimeoutMs: 30000 }), logger);
`,
    );
    const proc: ChildProcess = spawn(process.execPath, [entry], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    entries.push(proc);
    let out = '';
    let err = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => proc.once('close', resolve));
    const childPids = (count: number) =>
      waitFor(() => {
        const found = [...out.matchAll(/^ready \S+ (\d+)$/gm)].map((m) => Number(m[1]));
        return found.length === count ? found : undefined;
      });
    return { proc, out: () => out, err: () => err, exited, childPids };
  }

  const entries: ChildProcess[] = [];
  afterEach(() => {
    for (const proc of entries.splice(0)) proc.kill('SIGKILL');
  });

  it('forwards SIGTERM to its children, waits for them, and exits 0', async () => {
    const run = runEntry([['intake'], ['api']]);
    const pids = await run.childPids(2);
    run.proc.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    // Not a TTY here: lines pass through unprefixed, JSON lines stay JSON lines.
    expect(run.out()).toMatch(/^draining intake \d+$/m);
    expect(run.out()).toMatch(/^draining api \d+$/m);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });

  it("drains on one Ctrl-C (the group's SIGINT and pnpm's copy), children still starting included", async () => {
    // Children that handle signals only 300 ms after they print "ready".
    const run = runEntry([
      ['intake', '300'],
      ['api', '300'],
    ]);
    const pids = await run.childPids(2);
    const group = run.proc.pid ?? 0;
    // What a terminal does (SIGINT to the foreground group), then pnpm, which
    // passes its own SIGINT on to the script it runs: after the first was
    // handled (two pending signals would merge into one).
    process.kill(-group, 'SIGINT');
    await waitFor(() => (run.err().includes('"msg":"stopping"') ? true : undefined));
    process.kill(group, 'SIGINT');
    expect(await run.exited).toBe(0);
    for (const name of ['intake', 'api']) {
      // Once, from the supervisor: not from the terminal, not twice, not killed.
      expect(run.out().match(new RegExp(`^signal ${name} SIGINT$`, 'gm'))).toHaveLength(1);
      expect(run.out()).toMatch(new RegExp(`^draining ${name} \\d+$`, 'm'));
    }
    expect(run.err()).not.toContain('killing');
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });

  it('kills the children at a second Ctrl-C, and exits 1', async () => {
    // Children that would take a minute to drain.
    const run = runEntry([
      ['intake', '0', '60000'],
      ['api', '0', '60000'],
    ]);
    const pids = await run.childPids(2);
    const group = run.proc.pid ?? 0;
    process.kill(-group, 'SIGINT');
    await waitFor(() => (run.out().match(/^draining /gm)?.length === 2 ? true : undefined));
    // A person's second Ctrl-C, not a copy of the first: counted from when the
    // children were told to drain, which is after the supervisor took the first
    // signal (on a loaded machine that can be well after this test sent it).
    await new Promise((r) => setTimeout(r, SAME_REQUEST_MS + 200));
    process.kill(-group, 'SIGINT');
    expect(await run.exited).toBe(1);
    expect(run.err()).toContain('"msg":"second signal: killing children"');
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});
