/**
 * A round of work repeated on a timer in the process (the outbox relay, the
 * retention job, the reconcilers): the first round after `firstDelayMs` (at
 * once by default), each next one `intervalMs` after the
 * previous one ended, so rounds never overlap. A round that throws is reported
 * to onError and the loop goes on. The timer is unref'd: it never keeps a
 * process alive. Not a repeatable BullMQ job: Redis keeps nothing on disk and
 * would forget the schedule.
 */

export interface PeriodicTaskOptions {
  /** One round. */
  run: () => Promise<unknown>;
  /** Pause between the end of a round and the start of the next (ms). */
  intervalMs: number;
  /** Pause before the first round (ms). Default 0. */
  firstDelayMs?: number;
  /** Called with what a round threw. */
  onError?: (err: unknown) => void;
}

export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> | undefined;
  private state: 'idle' | 'started' | 'stopped' = 'idle';
  /** Bumped by every start: a round of an earlier start schedules nothing. */
  private generation = 0;

  constructor(private readonly options: PeriodicTaskOptions) {}

  /** True once stop() was called (until a new start): a long round may end early. */
  get stopped(): boolean {
    return this.state === 'stopped';
  }

  /** Starts the loop; nothing when it runs already. */
  start(): void {
    if (this.state === 'started') return;
    this.state = 'started';
    const generation = ++this.generation;
    // After a round of an earlier start that is still running: rounds never overlap.
    const previous = this.round ?? Promise.resolve();
    void previous.finally(() => this.schedule(this.options.firstDelayMs ?? 0, generation));
  }

  /** Stops the loop and waits for a round in progress. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(delayMs: number, generation: number): void {
    if (this.state !== 'started' || generation !== this.generation) return;
    this.timer = setTimeout(() => {
      this.round = this.options
        .run()
        .catch((err: unknown) => this.options.onError?.(err))
        .finally(() => this.schedule(this.options.intervalMs, generation));
    }, delayMs);
    this.timer.unref();
  }
}

/**
 * A job whose round() a PeriodicTask runs (the outbox relay, the retention job):
 * start() and stop() drive the loop; `stopped` lets a long round end early.
 */
export abstract class PeriodicJob {
  private readonly loop: PeriodicTask;

  protected constructor(options: Omit<PeriodicTaskOptions, 'run'>) {
    this.loop = new PeriodicTask({ ...options, run: () => this.round() });
  }

  /** One round of the job. */
  protected abstract round(): Promise<unknown>;

  /** True once stop() was called (until a new start). */
  protected get stopped(): boolean {
    return this.loop.stopped;
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits for a round in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
