import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createLogger } from '@leadhook/observability';
import { waitFor } from '@leadhook/worker-runtime/testing';
import { ROOT } from './paths.js';
import {
  type BackoffOptions,
  type ChildSpec,
  nextCrashCount,
  restartDelayMs,
  Supervisor,
} from './supervisor.js';
import { buildScripts } from './testing/build.js';

// Small fake services, so these tests do not depend on the real ones: each prints
// "ready <name> <pid>", and on SIGTERM "draining <name> <pid>" before exiting 0.
const dir = mkdtempSync(join(tmpdir(), 'leadhook-supervisor-'));
const FAKE = join(dir, 'fake.mjs');
writeFileSync(
  FAKE,
  `const name = process.argv[2];
console.log('ready ' + name + ' ' + process.pid);
process.on('SIGTERM', () => {
  // Exit once the line is written: a pipe write is asynchronous, and exit() drops
  // what is still pending.
  process.stdout.write('draining ' + name + ' ' + process.pid + '\\n', () => process.exit(0));
});
setInterval(() => {}, 1000);
`,
);
const STUBBORN = join(dir, 'stubborn.mjs');
writeFileSync(
  STUBBORN,
  `process.on('SIGTERM', () => console.error('ignoring SIGTERM'));
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

function fake(name: string, script = FAKE): ChildSpec {
  return { name, command: process.execPath, args: [script, name] };
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

describe('runSupervisor (the process behind pnpm start)', () => {
  beforeAll(() => buildScripts(), 180_000);

  it('forwards SIGTERM to its children, waits for them, and exits 0', async () => {
    const entry = join(dir, 'entry.mjs');
    const supervisorUrl = pathToFileURL(join(ROOT, 'scripts', 'dist', 'supervisor.js')).href;
    const observabilityUrl = pathToFileURL(
      join(ROOT, 'packages', 'observability', 'dist', 'index.js'),
    ).href;
    writeFileSync(
      entry,
      `import { Supervisor, runSupervisor } from ${JSON.stringify(supervisorUrl)};
import { createLogger } from ${JSON.stringify(observabilityUrl)};
const logger = createLogger({ service: 'supervisor', level: 'info', destination: process.stderr });
const children = ['intake', 'api'].map((name) => ({
  name, command: process.execPath, args: [${JSON.stringify(FAKE)}, name],
}));
runSupervisor(new Supervisor({ children, logger, stopTimeoutMs: 5000 }), logger);
`,
    );
    const proc: ChildProcess = spawn(process.execPath, [entry], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => proc.once('close', resolve));
    try {
      const pids = await waitFor(() => {
        const found = [...out.matchAll(/ready (intake|api) (\d+)/g)].map((m) => Number(m[2]));
        return found.length === 2 ? found : undefined;
      });
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
      // Not a TTY here: lines pass through unprefixed, JSON lines stay JSON lines.
      expect(out).toMatch(/^draining intake \d+$/m);
      expect(out).toMatch(/^draining api \d+$/m);
      for (const pid of pids) expect(alive(pid)).toBe(false);
    } finally {
      proc.kill('SIGKILL');
    }
  });
});
