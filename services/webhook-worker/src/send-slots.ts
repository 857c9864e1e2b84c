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
  private draining = false;
  private readonly running = new Set<Promise<void>>();

  constructor(readonly size: number) {}

  /** Reserves up to `wanted` free slots; returns how many it got (none once draining). */
  reserve(wanted: number): number {
    if (this.draining) return 0;
    const n = Math.max(0, Math.min(wanted, this.size - this.reserved));
    this.reserved += n;
    return n;
  }

  /** Gives back `n` reserved slots that were not used. */
  release(n: number): void {
    this.reserved -= n;
  }

  /**
   * Runs `work` in a slot reserved before; the slot is freed when it settles.
   * Once draining, nothing new starts: the slot is given back and false returned
   * (the caller hands back the delivery it claimed for the slot: fanout.job.ts).
   */
  run(work: () => Promise<void>): boolean {
    if (this.draining) {
      this.reserved--;
      return false;
    }
    const settled: Promise<void> = work()
      .catch(() => {})
      .finally(() => {
        this.reserved--;
        this.running.delete(settled);
      });
    this.running.add(settled);
    return true;
  }

  /** Slots reserved or running now. */
  get inUse(): number {
    return this.reserved;
  }

  /**
   * Shutdown: refuses new reservations and runs, then resolves once every slot is
   * back: runs settled, and reservations of fan-outs still in their query (a
   * BullMQ worker closed without waiting for its jobs) given back.
   */
  async drain(): Promise<void> {
    this.draining = true;
    while (this.reserved > 0) {
      // A reservation with no run behind it is a fan-out still in its query: poll.
      const pause = new Promise((resolve) => setTimeout(resolve, 20));
      await (this.running.size > 0 ? Promise.race([Promise.all(this.running), pause]) : pause);
    }
  }
}
