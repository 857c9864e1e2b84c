import { PeriodicTask } from './periodic-task.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A round counter whose `reached(n)` resolves once round n has started. */
function rounds() {
  let count = 0;
  const waiting = new Map<number, () => void>();
  return {
    get count() {
      return count;
    },
    next(): number {
      count++;
      waiting.get(count)?.();
      return count;
    },
    reached(n: number): Promise<void> {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve) => waiting.set(n, resolve));
    },
  };
}

describe('PeriodicTask', () => {
  it('runs the first round at once, not after an interval', async () => {
    const r = rounds();
    const task = new PeriodicTask({ intervalMs: 60_000, run: async () => r.next() });
    task.start();
    await r.reached(1);
    await task.stop();
    expect(r.count).toBe(1);
  });

  it('with firstDelayMs, waits that long before the first round (the reconcilers)', async () => {
    const r = rounds();
    const task = new PeriodicTask({
      intervalMs: 60_000,
      firstDelayMs: 150,
      run: async () => r.next(),
    });
    task.start();
    await sleep(50);
    expect(r.count).toBe(0);
    await r.reached(1);
    await task.stop();
    expect(r.count).toBe(1);
  });

  /** A task whose 30 ms rounds count how many of them ever ran at once. */
  function overlapping(intervalMs: number) {
    const r = rounds();
    let inFlight = 0;
    const seen = { maxInFlight: 0 };
    const task = new PeriodicTask({
      intervalMs,
      run: async () => {
        r.next();
        inFlight++;
        seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
        await sleep(30);
        inFlight--;
      },
    });
    return { r, task, seen };
  }

  it('a start right after a stop, with a round still running, keeps one loop', async () => {
    const { r, task, seen } = overlapping(5);
    task.start();
    await r.reached(1);
    void task.stop(); // the first round is still running
    task.start();
    await r.reached(6);
    await task.stop();
    expect(seen.maxInFlight).toBe(1);
  });

  it('runs a round per interval, never two at a time', async () => {
    const { r, task, seen } = overlapping(10);
    task.start();
    task.start(); // a second start is nothing
    await r.reached(3);
    await task.stop();
    expect(seen.maxInFlight).toBe(1);
  });

  it('reports a round that throws and keeps going', async () => {
    const r = rounds();
    const errors: unknown[] = [];
    const task = new PeriodicTask({
      intervalMs: 5,
      run: async () => {
        throw new Error(`round ${r.next()}`);
      },
      onError: (err) => errors.push(err),
    });
    task.start();
    await r.reached(3);
    await task.stop();
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(String(errors[0])).toContain('round 1');
  });

  it('stop waits for the round in progress, which sees `stopped`, and runs no more', async () => {
    const r = rounds();
    let sawStopped = false;
    let finished = false;
    const task = new PeriodicTask({
      intervalMs: 5,
      run: async () => {
        r.next();
        await sleep(40);
        sawStopped = task.stopped;
        finished = true;
      },
    });
    expect(task.stopped).toBe(false);
    task.start();
    await r.reached(1);
    await task.stop();
    expect(finished).toBe(true);
    expect(sawStopped).toBe(true);
    await sleep(30);
    expect(r.count).toBe(1);
  });
});
