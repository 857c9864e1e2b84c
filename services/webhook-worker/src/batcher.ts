/**
 * Group batching of one kind of SQL call: what callers submit while earlier calls
 * run is sent together in the next call, one transaction for many items (its
 * commit and its round trip shared). Nothing waits for a batch to fill: an item
 * submitted while fewer than `concurrency` calls run goes out in the next turn of
 * the event loop, with whatever else was submitted in the same turn. So a lone
 * item costs what it cost alone, and under load the batches grow to what arrives
 * during one call (at most `maxBatch`).
 *
 * `call` answers each item of its batch in order. A batch that fails with a
 * deadlock or a serialization failure (its transaction rolled back, nothing of it
 * kept) is sent once more; any other failure rejects every item of the batch.
 */
export class Batcher<I, O> {
  private readonly waiting: {
    item: I;
    resolve: (out: O) => void;
    reject: (err: unknown) => void;
  }[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly call: (items: I[]) => Promise<O[]>,
    private readonly options: { maxBatch: number; concurrency: number },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Items waiting for a call, and calls running (for tests and metrics). */
  get pending(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.running };
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.running++;
      this.send(batch.map((b) => b.item))
        .then((out) => {
          if (out.length !== batch.length) {
            throw new Error(`a batch of ${batch.length} got ${out.length} answers`);
          }
          for (const [i, b] of batch.entries()) b.resolve(out[i] as O);
        })
        .catch((err: unknown) => {
          for (const b of batch) b.reject(err);
        })
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }

  private async send(items: I[]): Promise<O[]> {
    try {
      return await this.call(items);
    } catch (err) {
      if (!isRetryableTransactionError(err)) throw err;
      return this.call(items);
    }
  }
}

/**
 * The answers of a batched SQL function that returns (item, ...) rows, item being
 * the position in its input from 1: in input order, each present once.
 */
export function answersByItem<T>(
  rows: readonly ({ item: number } & T)[],
  count: number,
  fn: string,
): T[] {
  const answers: T[] = new Array(count);
  let answered = 0;
  for (const { item, ...answer } of rows) {
    if (item >= 1 && item <= count && !(item - 1 in answers)) answered++;
    answers[item - 1] = answer as unknown as T;
  }
  if (answered !== count || rows.length !== count) {
    throw new Error(`${fn} answered ${rows.length} rows for ${count} items`);
  }
  return answers;
}

/** deadlock_detected or serialization_failure: the transaction was rolled back whole. */
function isRetryableTransactionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}
