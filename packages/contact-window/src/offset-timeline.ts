import { IANAZone } from 'luxon';

const DAY_MS = 86_400_000;

const zoneCache = new Map<string, IANAZone>();

/** What the window checks need of a zone; luxon's IANAZone is one. */
export interface ZoneClock {
  readonly name: string;
  /** Offset from UTC at `ms`, in minutes. */
  offset(ms: number): number;
}

export function zoneNamed(name: string): IANAZone {
  let zone = zoneCache.get(name);
  if (zone === undefined) {
    zone = IANAZone.create(name);
    if (!zone.isValid) throw new Error(`unknown time zone "${name}"`);
    zoneCache.set(name, zone);
  }
  return zone;
}

/**
 * A zone's UTC offsets over a span, found once: asking luxon (Intl) for every
 * instant the search looks at costs microseconds each, and the search looks at
 * hundreds. Outside the span it asks luxon.
 */
export class OffsetTimeline implements ZoneClock {
  readonly name: string;
  private readonly zone: IANAZone;
  private readonly from: number;
  private readonly to: number;
  /** Segment starts (the first is `from`) and their offsets in minutes. */
  private readonly starts: number[] = [];
  private readonly offsets: number[] = [];

  constructor(name: string, from: number, to: number) {
    this.name = name;
    this.zone = zoneNamed(name);
    this.from = from;
    this.to = to;
    this.starts.push(from);
    this.offsets.push(this.zone.offset(from));
    // Sampled once a day (each sample costs an Intl call of several microseconds):
    // no zone in the tz database changes its offset twice within a day, so no
    // change is missed; each change found is then located to the millisecond.
    const step = DAY_MS;
    let before = this.offsets[0] ?? this.zone.offset(from);
    for (let lo = from; lo < to; lo += step) {
      const hi = Math.min(lo + step, to);
      const after = this.zone.offset(hi);
      if (after !== before) {
        let a = lo;
        let b = hi;
        while (b - a > 1) {
          const mid = Math.floor((a + b) / 2);
          if (this.zone.offset(mid) === before) a = mid;
          else b = mid;
        }
        this.starts.push(b);
        this.offsets.push(after);
      }
      before = after;
    }
  }

  /** The zone's offset from UTC at `ms`, in minutes. */
  offset(ms: number): number {
    if (ms < this.from || ms > this.to) return this.zone.offset(ms);
    let i = this.starts.length - 1;
    while (i > 0 && (this.starts[i] ?? 0) > ms) i--;
    return this.offsets[i] ?? this.zone.offset(ms);
  }

  /** The instants within the span at which the offset changes. */
  changes(): readonly number[] {
    return this.starts.slice(1);
  }
}
