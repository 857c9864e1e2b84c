import { answersByItem, Batcher } from './batcher.js';

/** A call that waits until released, recording the batches it got. */
function gatedCall() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const call = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve) => gates.push(() => resolve(items.map((i) => i * 10))));
  };
  const releaseAll = () => {
    for (const open of gates.splice(0)) open();
  };
  return { batches, call, releaseAll };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('sends a lone item at once, and what arrives during a call in the next one', async () => {
    const { batches, call, releaseAll } = gatedCall();
    const b = new Batcher(call, { maxBatch: 3, concurrency: 1 });
    const first = b.submit(1);
    await turn();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4, 5].map((i) => b.submit(i));
    await turn();
    expect(b.pending).toEqual({ waiting: 4, running: 1 });
    releaseAll();
    expect(await first).toBe(10);
    await turn();
    // At most maxBatch per call, in arrival order.
    expect(batches).toEqual([[1], [2, 3, 4]]);
    releaseAll();
    await turn();
    releaseAll();
    expect(await Promise.all(rest)).toEqual([20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('runs up to `concurrency` calls at once', async () => {
    const { batches, call, releaseAll } = gatedCall();
    const b = new Batcher(call, { maxBatch: 1, concurrency: 2 });
    const all = [1, 2, 3].map((i) => b.submit(i));
    await turn();
    expect(batches).toEqual([[1], [2]]);
    releaseAll();
    await turn();
    releaseAll();
    expect(await Promise.all(all)).toEqual([10, 20, 30]);
  });

  it('sends a batch again after a deadlock; another failure rejects every item of it', async () => {
    let calls = 0;
    const deadlockOnce = new Batcher(
      async (items: number[]) => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        return items;
      },
      { maxBatch: 10, concurrency: 1 },
    );
    expect(await Promise.all([deadlockOnce.submit(1), deadlockOnce.submit(2)])).toEqual([1, 2]);
    expect(calls).toBe(2);

    const failing = new Batcher(
      async (): Promise<number[]> => {
        throw new Error('connection terminated');
      },
      { maxBatch: 10, concurrency: 1 },
    );
    const results = await Promise.allSettled([failing.submit(1), failing.submit(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // The batcher goes on after a failure.
    const after = new Batcher(async (items: number[]) => items, { maxBatch: 10, concurrency: 1 });
    expect(await after.submit(7)).toBe(7);
  });

  it('rejects a batch whose call answered another number of items', async () => {
    const b = new Batcher(async () => [1], { maxBatch: 10, concurrency: 1 });
    await expect(Promise.all([b.submit(1), b.submit(2)])).rejects.toThrow(
      'a batch of 2 got 1 answers',
    );
  });
});

describe('answersByItem', () => {
  it('orders rows by their item and refuses a missing or repeated one', () => {
    expect(
      answersByItem<{ v: string }>(
        [
          { item: 2, v: 'b' },
          { item: 1, v: 'a' },
        ],
        2,
        'f',
      ),
    ).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect(() => answersByItem([{ item: 1 }, { item: 1 }], 2, 'f')).toThrow(
      'f answered 2 rows for 2 items',
    );
    expect(() => answersByItem([{ item: 1 }], 2, 'f')).toThrow('f answered 1 rows for 2 items');
  });
});
