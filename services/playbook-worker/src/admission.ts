import type { Pool } from '@leadhook/db';

export interface AdmissionOptions {
  /**
   * Enrollments wait while more than this many steps are due and not yet run.
   * Steps in flight count too (their row still says due), so keep it above the
   * step concurrency.
   */
  maxDueSteps?: number;
  /**
   * Enrollments also wait while the oldest due step is later than this (ms):
   * the backlog in time, whatever the machine's speed.
   */
  maxLagMs?: number;
  /**
   * Only steps due within this window count: a play whose step keeps failing
   * (say, a playbook broken by hand) must not hold enrollment back for good.
   */
  lookbackMs?: number;
  /** How often a held enrollment looks again (ms). */
  pollMs?: number;
}

export const DEFAULT_ADMISSION = {
  maxDueSteps: 50,
  maxLagMs: 250,
  lookbackMs: 10 * 60_000,
  pollMs: 50,
} as const;

/**
 * Admission control: due steps come before new enrollments. Every enrollment
 * starts a play whose steps are promised on time (enrollment
 * starts the steps at once); a burst of accepted leads enrolled as fast as they
 * arrive made every step of every play late (bench/playbook). So the
 * enrollment consumer holds each lead while the steps already due but not run
 * are too many or too late (the oldest one past maxLagMs), and a burst queues at
 * enrollment (lead accepted → `started`, which the benchmark reports next to the
 * step lag) instead.
 *
 * The backlog is read from PostgreSQL (active plays whose next_run_at has
 * passed), not from Redis: BullMQ moves a due delayed job to its wait list only
 * when a worker fetches, so a busy worker's backlog hides in the delayed set.
 * The lead waits with its job held (the job's lock is renewed), so nothing is
 * lost if the process dies: the job returns to the queue.
 */
export class StepBacklogGate {
  private readonly options: Required<AdmissionOptions>;

  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date,
    options: AdmissionOptions = {},
    private readonly onError?: (err: unknown) => void,
  ) {
    this.options = { ...DEFAULT_ADMISSION, ...options };
  }

  /**
   * Steps due and not yet run (counted up to maxDueSteps + 1) and how late the
   * oldest of them is (ms; 0 when none).
   */
  async backlog(): Promise<{ due: number; lagMs: number }> {
    const now = this.now();
    const { rows } = await this.pool.query<{ n: number; oldest: Date | null }>(
      `SELECT count(*)::int AS n, min(next_run_at) AS oldest FROM (
         SELECT next_run_at FROM enrollments
          WHERE status = 'active' AND next_run_at <= $1 AND next_run_at > $2
          ORDER BY next_run_at
          LIMIT $3) due`,
      [now, new Date(now.getTime() - this.options.lookbackMs), this.options.maxDueSteps + 1],
    );
    const oldest = rows[0]?.oldest;
    return {
      due: rows[0]?.n ?? 0,
      lagMs: oldest ? Math.max(0, now.getTime() - oldest.getTime()) : 0,
    };
  }

  /**
   * full(), except that a failed look (PostgreSQL busy or away) lets the lead
   * through: the enrollment itself then meets the same database, and its job's
   * failure is what gets reported and retried, not a hold that never ends.
   */
  private async fullOrUnknown(): Promise<boolean> {
    try {
      return await this.full();
    } catch (err) {
      this.onError?.(err);
      return false;
    }
  }

  /** True while enrollments should wait. */
  async full(): Promise<boolean> {
    const { due, lagMs } = await this.backlog();
    return due > this.options.maxDueSteps || lagMs > this.options.maxLagMs;
  }

  /**
   * Resolves once the backlog is small enough (full() is false), or at once when `signal`
   * aborts (a stopping process enrolls the lead it holds rather than hand back a
   * job). Answers how long it held (ms).
   */
  async waitForRoom(signal?: AbortSignal): Promise<number> {
    const started = Date.now();
    while (!signal?.aborted && (await this.fullOrUnknown())) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollMs);
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return Date.now() - started;
  }
}
