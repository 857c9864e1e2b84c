/**
 * The sending slots of the deliveries a fan-out claims for itself
 * (webhook_fan_out_claim, see fanout.job.ts): a fan-out reserves free slots,
 * asks PostgreSQL to claim at most that many of the heads it creates, gives back
 * what it did not use, and each claimed delivery then runs in its slot, outside
 * the fan-out job (so a slow subscriber holds a slot, never a fan-out job). With
 * no free slot, heads go to the delivery queue as before: the slots bound the
 * work this bypass adds to the process, the queue keeps the rest.
 */
export class SendSlots {
  private reserved = 0;
  private readonly running = new Set<Promise<void>>();

  constructor(readonly size: number) {}

  /** Reserves up to `wanted` free slots; returns how many it got. */
  reserve(wanted: number): number {
    const n = Math.max(0, Math.min(wanted, this.size - this.reserved));
    this.reserved += n;
    return n;
  }

  /** Gives back `n` reserved slots that were not used. */
  release(n: number): void {
    this.reserved -= n;
  }

  /** Runs `work` in a slot reserved before; the slot is freed when it settles. */
  run(work: () => Promise<void>): void {
    const settled: Promise<void> = work()
      .catch(() => {})
      .finally(() => {
        this.reserved--;
        this.running.delete(settled);
      });
    this.running.add(settled);
  }

  /** Slots reserved or running now. */
  get inUse(): number {
    return this.reserved;
  }

  /** Resolves once every run started so far has settled (shutdown waits for it). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
