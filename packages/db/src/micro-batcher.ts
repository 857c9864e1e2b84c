/**
 * Group commit for database calls (intake's leads, the webhook worker's
 * fan-outs and attempt records): items submitted while a call is
 * in flight are coalesced into the next call, so N concurrent leads cost one
 * round trip (and one transaction) instead of N.
 *
 * Why: a CPU-bound intake spent most on pg query dispatch (socket writes,
 * protocol parsing, pool hand-offs), paid once per call (bench/RESULTS.md,
 * "Figures that code comments quoted", with the figures behind each batcher's
 * settings).
 *
 * Latency: a lone item is never held back; it goes out at once when fewer than
 * `maxInFlight` calls are running. Items wait only behind a running call, which
 * is exactly when the database is busy anyway.
 */

export interface MicroBatcherOptions<I, O> {
  /**
   * Runs one batch. Resolves with one output per input, in input order; a
   * rejection fails every item of the batch.
   */
  run: (items: readonly I[]) => Promise<readonly O[]>;
  /** Items per call at most (bounds a call's duration and its lock set). */
  maxBatchSize: number;
  /** Calls running at once at most; more items wait and are coalesced. */
  maxInFlight: number;
  /**
   * A batch whose call failed with an error this accepts is run once more (a
   * transaction rolled back whole, e.g. isTransactionRollback); any other failure,
   * or a second one, fails every item of the batch.
   */
  retryOnce?: (err: unknown) => boolean;
  /**
   * When a batch of several items fails for good with an error this accepts, run
   * each item alone (with the same retry), so that one item the call refuses (bad
   * data, a lock cycle it keeps meeting) fails itself only. For calls whose items
   * are independent; not for errors every item would meet again (the database
   * unreachable: the items would each wait for their own connection timeout).
   */
  isolateOnFailure?: (err: unknown) => boolean;
}

/**
 * PostgreSQL rolled the transaction back whole and says trying again may work:
 * deadlock_detected (40P01) or serialization_failure (40001).
 */
export function isTransactionRollback(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

interface Pending<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}

export class MicroBatcher<I, O> {
  private queue: Pending<I, O>[] = [];
  private inFlight = 0;

  constructor(private readonly options: MicroBatcherOptions<I, O>) {
    if (!(options.maxBatchSize >= 1) || !(options.maxInFlight >= 1)) {
      throw new Error('maxBatchSize and maxInFlight must be at least 1');
    }
  }

  /** Resolves with this item's output once the call that carried it has finished. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** Calls running now (for tests and metrics). */
  get running(): number {
    return this.inFlight;
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch =
        this.queue.length <= this.options.maxBatchSize
          ? this.queue
          : this.queue.slice(0, this.options.maxBatchSize);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.options.maxBatchSize);
      this.inFlight++;
      void this.runBatch(batch);
    }
  }

  private async runBatch(batch: Pending<I, O>[]): Promise<void> {
    try {
      const outputs = await this.call(batch);
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outputs[i]!);
    } catch (err) {
      if (batch.length > 1 && this.options.isolateOnFailure?.(err)) {
        for (const pending of batch) {
          await this.call([pending]).then(([output]) => pending.resolve(output!), pending.reject);
        }
      } else {
        for (const pending of batch) pending.reject(err);
      }
    } finally {
      this.inFlight--;
      this.pump();
    }
  }

  /** Runs the batch, once more after an error retryOnce accepts; one output per item. */
  private async call(batch: Pending<I, O>[]): Promise<readonly O[]> {
    const items = batch.map((p) => p.item);
    const outputs = await this.options.run(items).catch((err: unknown) => {
      if (this.options.retryOnce?.(err)) return this.options.run(items);
      throw err;
    });
    if (outputs.length !== batch.length) {
      throw new Error(`batch returned ${outputs.length} results for ${batch.length} items`);
    }
    return outputs;
  }
}
