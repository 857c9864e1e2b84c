import { isTransactionRollback, MicroBatcher } from './micro-batcher.js';

/** A run function whose calls the test finishes by hand. */
function controlledRun() {
  const calls: { items: readonly number[]; finish: () => void; fail: (err: Error) => void }[] = [];
  const run = (items: readonly number[]) =>
    new Promise<readonly string[]>((resolve, reject) => {
      calls.push({
        items,
        finish: () => resolve(items.map((n) => `out-${n}`)),
        fail: reject,
      });
    });
  return { calls, run };
}

/** An error as pg reports one, with its SQLSTATE. */
function pgError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A one-at-a-time batcher of up to 10 items that runs a rolled-back batch once more. */
function retryingOnRollback(run: (items: readonly number[]) => Promise<readonly number[]>) {
  return new MicroBatcher({
    run,
    maxBatchSize: 10,
    maxInFlight: 1,
    retryOnce: isTransactionRollback,
  });
}

describe('MicroBatcher', () => {
  it('sends a lone item at once, without waiting for company', async () => {
    const { calls, run } = controlledRun();
    const batcher = new MicroBatcher({ run, maxBatchSize: 64, maxInFlight: 1 });
    const out = batcher.submit(1);
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0]!.finish();
    await expect(out).resolves.toBe('out-1');
  });

  it('coalesces what arrives while a call is in flight into the next call, in order', async () => {
    const { calls, run } = controlledRun();
    const batcher = new MicroBatcher({ run, maxBatchSize: 64, maxInFlight: 1 });
    const first = batcher.submit(1);
    const rest = [2, 3, 4].map((n) => batcher.submit(n));
    expect(calls).toHaveLength(1);
    calls[0]!.finish();
    await first;
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4]]);
    calls[1]!.finish();
    await expect(Promise.all(rest)).resolves.toEqual(['out-2', 'out-3', 'out-4']);
  });

  it('bounds a call to maxBatchSize items', async () => {
    const { calls, run } = controlledRun();
    const batcher = new MicroBatcher({ run, maxBatchSize: 2, maxInFlight: 1 });
    const outs = [1, 2, 3, 4, 5, 6].map((n) => batcher.submit(n));
    for (let i = 0; i < 4; i++) {
      calls[i]!.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3], [4, 5], [6]]);
    await expect(Promise.all(outs)).resolves.toHaveLength(6);
  });

  it('runs up to maxInFlight calls at once', () => {
    const { calls, run } = controlledRun();
    const batcher = new MicroBatcher({ run, maxBatchSize: 64, maxInFlight: 2 });
    for (const n of [1, 2, 3, 4]) void batcher.submit(n);
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    expect(batcher.running).toBe(2);
  });

  it('fails every item of a failed call, and only those', async () => {
    const { calls, run } = controlledRun();
    const batcher = new MicroBatcher({ run, maxBatchSize: 64, maxInFlight: 1 });
    const first = batcher.submit(1);
    const second = batcher.submit(2);
    calls[0]!.fail(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    calls[1]!.finish();
    await expect(second).resolves.toBe('out-2');
  });

  it('fails the batch when the run answers the wrong number of outputs', async () => {
    const batcher = new MicroBatcher<number, string>({
      run: async () => ['only-one'],
      maxBatchSize: 64,
      maxInFlight: 1,
    });
    // 1 goes alone (one output: fine); 2 and 3 wait for it and share a call.
    const outs = [batcher.submit(1), batcher.submit(2), batcher.submit(3)];
    await expect(outs[0]).resolves.toBe('only-one');
    await expect(outs[1]).rejects.toThrow('batch returned 1 results for 2 items');
    await expect(outs[2]).rejects.toThrow('batch returned 1 results for 2 items');
  });

  it('refuses a zero bound', () => {
    expect(
      () => new MicroBatcher({ run: async () => [], maxBatchSize: 0, maxInFlight: 1 }),
    ).toThrow();
  });

  const deadlock = pgError('deadlock detected', '40P01');
  const terminated = pgError('connection terminated', '57P01');
  // Each run throws the next of `failures`, then returns its items; `error`: what
  // submit rejects with (null: it resolves).
  it.each([
    {
      case: 'runs a batch rolled back by a deadlock once more',
      failures: [deadlock],
      calls: 2,
      error: null,
    },
    {
      case: 'fails a batch at once on any failure other than a rollback',
      failures: [terminated],
      calls: 1,
      error: 'connection terminated',
    },
    {
      case: 'retries a rolled-back batch once only: a second rollback fails it',
      failures: [deadlock, deadlock],
      calls: 2,
      error: 'deadlock detected',
    },
  ])('$case', async ({ failures, calls: expectedCalls, error }) => {
    let calls = 0;
    const batcher = retryingOnRollback(async (items) => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return items;
    });
    if (error === null) await expect(batcher.submit(1)).resolves.toBe(1);
    else await expect(batcher.submit(1)).rejects.toThrow(error);
    expect(calls).toBe(expectedCalls);
  });

  it('with isolateOnFailure, runs a failed batch item by item: only the bad item fails', async () => {
    const calls: (readonly number[])[] = [];
    const batcher = new MicroBatcher({
      run: async (items: readonly number[]) => {
        calls.push(items);
        if (items.includes(13)) throw new Error('invalid input for 13');
        return items.map((n) => n * 2);
      },
      maxBatchSize: 10,
      maxInFlight: 1,
      isolateOnFailure: (err) => !String(err).includes('unreachable'),
    });
    const first = batcher.submit(1); // alone: the others wait behind its call
    const rest = [2, 13, 4].map((n) => batcher.submit(n));
    await expect(first).resolves.toBe(2);
    const settled = await Promise.allSettled(rest);
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.message))).toEqual([
      4,
      'invalid input for 13',
      8,
    ]);
    expect(calls).toEqual([[1], [2, 13, 4], [2], [13], [4]]);
  });

  it('does not isolate an error the predicate refuses: the batch fails at once', async () => {
    const calls: (readonly number[])[] = [];
    const batcher = new MicroBatcher({
      run: async (items: readonly number[]): Promise<readonly number[]> => {
        calls.push(items);
        if (items.length > 1) throw new Error('database unreachable');
        return items;
      },
      maxBatchSize: 10,
      maxInFlight: 1,
      isolateOnFailure: (err) => !String(err).includes('unreachable'),
    });
    const first = batcher.submit(1);
    const rest = [2, 3].map((n) => batcher.submit(n));
    await first;
    const settled = await Promise.allSettled(rest);
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toEqual([[1], [2, 3]]);
  });
});
