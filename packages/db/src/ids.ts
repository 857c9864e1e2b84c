import { randomFillSync } from 'node:crypto';
import { encodeTime, monotonicFactory } from 'ulid';

/** Every entity's id prefix (docs/api.md, "Conventions"). */
export const ID_PREFIXES = {
  account: 'acc',
  apiKey: 'key',
  playbook: 'pb',
  source: 'src',
  lead: 'lead',
  submission: 'subm',
  enrollment: 'play',
  activity: 'act',
  subscription: 'sub',
  delivery: 'dlv',
  attempt: 'att',
  providerMessage: 'pmsg',
  suppressionImport: 'imp',
  suppressionRemoval: 'sprm',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * ulid's random source, from a pooled CSPRNG buffer: ulid draws one random number
 * per character, and its default source asks WebCrypto for each one, a cost the
 * webhook worker's profile showed (bench/RESULTS.md, "Figures that code comments
 * quoted"). A byte / 256 is uniform
 * over the 32 characters (its top 5 bits).
 */
const RANDOM_POOL = new Uint8Array(4096);
let randomAt = RANDOM_POOL.length;
function pooledRandom(): number {
  if (randomAt === RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    randomAt = 0;
  }
  return (RANDOM_POOL[randomAt++] as number) / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

/**
 * A prefixed, random, time-sortable id: `lead_01jd…`. The ULID part is 48 bits of
 * millisecond time and 80 random bits, lower-cased, so ids of one kind sort by
 * creation time and keyset pagination can order by id alone.
 */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${nextUlid().toLowerCase()}`;
}

/**
 * The least id of `kind` made at or after `at`: its time part, then the least
 * random part. Every id newId (or leadhook_new_id) makes from `at` on sorts at or
 * after it, so `id >= idFloor(kind, at)` bounds a keyset walk by time.
 */
export function idFloor(kind: IdKind, at: Date): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(Math.max(0, at.getTime()), 10).toLowerCase()}${'0'.repeat(16)}`;
}

/** True when `id` has the shape of an id of `kind` (cheap guard before a lookup). */
export function isId(kind: IdKind, id: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{26}$`).test(id);
}
