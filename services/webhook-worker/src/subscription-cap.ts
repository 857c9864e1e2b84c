import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '@leadhook/observability';
import type { RedisClient } from '@leadhook/queue';

/**
 * The cap on one subscription's attempts in flight
 * (WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION), over every path that sends (delivery
 * jobs, fan-outs' own sends) and every webhook-worker process: a subscriber that
 * hangs holds at most this many of the worker's slots, whatever its backlog, and
 * the others keep theirs (docs/operations.md, "Webhook worker").
 *
 * Kept in Redis, per subscription: a sorted set of the slots held, each with the
 * time it lapses (`ttlMs`: an attempt's lease plus a chain walk, renewed at each
 * hand-off), and a sorted set of the deliveries waiting for a slot, oldest
 * first. Both are changed only by the scripts below, atomically, on Redis's own
 * clock. A process that dies holding slots leaks them only until they lapse; a
 * Redis that restarts empty forgets the slots held (for one lease, up to twice
 * the cap may be in flight) and the waiters, whose deliveries PostgreSQL still
 * has due (the reconciler enqueues them again). PostgreSQL stays the truth of
 * what is sent: the cap decides only when.
 *
 * Why not PostgreSQL: counting a subscription's leased deliveries at each claim
 * needs an index on claimed_until, which every claim writes (no more HOT updates
 * on the hot path), and a lock per subscription held to commit to make the count
 * exact, which the batched fan-outs and records would take in the middle of
 * their lock order.
 */
export class SubscriptionCap {
  private lastRedisWarning = 0;
  private readonly noticed = new Map<string, number>();

  constructor(
    private readonly redis: RedisClient,
    /** QUEUE_PREFIX: the keys live beside the queues' (one Cluster slot with a hash tag). */
    private readonly prefix: string,
    /** WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION */
    readonly max: number,
    /** How long a slot is held without renewal; also how long a put-back delivery waits at most. */
    readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Takes a slot of the subscription, or answers null at the cap. Redis
   * unreachable: a slot not counted (the cap fails open: the worker cannot take
   * jobs from Redis then anyway, and a fan-out that claimed a delivery sends it as
   * before the cap).
   */
  acquire(subscriptionId: string): Promise<CapSlot | null> {
    return this.take(subscriptionId, '');
  }

  /**
   * At the cap, `delivery` (its lease ended: nobody holds it) joins the
   * subscription's waiters, keeping its place if it was there already, and null
   * is answered: a holder of a slot sends it when done with its own (handOff). A
   * slot freed since acquire() is taken instead, for the caller to send it.
   */
  park(subscriptionId: string, delivery: Waiter): Promise<CapSlot | null> {
    return this.take(subscriptionId, waiterMember(delivery));
  }

  private async take(subscriptionId: string, member: string): Promise<CapSlot | null> {
    const token = randomBytes(9).toString('base64url');
    try {
      const got = await this.run(ACQUIRE, subscriptionId, [
        token,
        this.max,
        this.ttlMs,
        member,
        WAITERS_TTL_MS,
      ]);
      return got === 1 ? { subscriptionId, token } : null;
    } catch (err) {
      this.warnRedis(err);
      return { subscriptionId, token: null };
    }
  }

  /**
   * Done with a delivery: the subscription's oldest waiter, if any, for the
   * holder to send in the same slot (renewed); none, the slot is given back and
   * null answered. Null too when the slot lapsed and the cap is full (others
   * took it meanwhile).
   */
  async handOff(slot: CapSlot): Promise<Waiter | null> {
    if (slot.token === null) return null;
    try {
      const member = await this.run(HAND_OFF, slot.subscriptionId, [
        slot.token,
        this.max,
        this.ttlMs,
      ]);
      return typeof member === 'string' ? waiterOf(member) : null;
    } catch (err) {
      this.warnRedis(err);
      return null;
    }
  }

  /** Gives the slot back without taking a waiter (the process is stopping, or a send failed). */
  async release(slot: CapSlot): Promise<void> {
    if (slot.token === null) return;
    try {
      await this.redis.zrem(this.keys(slot.subscriptionId)[0], slot.token);
    } catch (err) {
      // It lapses after ttlMs.
      this.warnRedis(err);
    }
  }

  /**
   * True at most once a minute per subscription (and process): what a capped
   * subscription's log line waits for, so a hung subscriber's backlog is one line
   * a minute, not one per delivery put back.
   */
  firstNoticeInAWhile(subscriptionId: string): boolean {
    const now = Date.now();
    const last = this.noticed.get(subscriptionId);
    if (last !== undefined && now - last < 60_000) return false;
    if (this.noticed.size >= 10_000) this.noticed.clear();
    this.noticed.set(subscriptionId, now);
    return true;
  }

  /** The slots of the subscription held now and its waiters (tests, operators). */
  async state(subscriptionId: string): Promise<{ held: number; waiting: number }> {
    const [slots, waiters] = this.keys(subscriptionId);
    const now = Date.now();
    const [held, waiting] = await Promise.all([
      this.redis.zcount(slots, now, '+inf'),
      this.redis.zcard(waiters),
    ]);
    return { held, waiting };
  }

  private keys(subscriptionId: string): [string, string] {
    // The braces make both keys one hash slot on a Redis Cluster (the script
    // takes them together), whatever QUEUE_PREFIX is.
    const base = `${this.prefix}:webhook-cap:{${subscriptionId}}`;
    return [`${base}:slots`, `${base}:waiting`];
  }

  private async run(script: Script, subscriptionId: string, args: (string | number)[]) {
    const keys = this.keys(subscriptionId);
    try {
      return await this.redis.evalsha(script.sha, 2, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error)?.message).startsWith('NOSCRIPT')) throw err;
      return await this.redis.eval(script.source, 2, ...keys, ...args);
    }
  }

  /** At most one line every 30 s: with Redis away every delivery would say it. */
  private warnRedis(err: unknown): void {
    const now = Date.now();
    if (now - this.lastRedisWarning < 30_000) return;
    this.lastRedisWarning = now;
    this.logger.warn({ err }, 'subscription cap unavailable (Redis); sending without it');
  }
}

/** A slot held (token null: Redis was away, nothing counted). */
export interface CapSlot {
  subscriptionId: string;
  token: string | null;
}

/** A delivery waiting for a slot: the attempt it is due at. */
export interface Waiter {
  deliveryId: string;
  attempt: number;
}

/**
 * How long a subscription's waiters are kept after the last one parked: a waiter
 * is only a hint (its delivery's job comes back by itself, see the delivery
 * processor), so idle subscriptions leave nothing in Redis.
 */
const WAITERS_TTL_MS = 3_600_000;

function waiterMember(w: Waiter): string {
  return `${w.attempt}:${w.deliveryId}`;
}

function waiterOf(member: string): Waiter | null {
  const colon = member.indexOf(':');
  const attempt = Number(member.slice(0, colon));
  if (colon < 1 || !Number.isInteger(attempt)) return null;
  return { deliveryId: member.slice(colon + 1), attempt };
}

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Redis's clock in ms, shared by every process (scripts may call TIME since Redis 5). */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)`;

/**
 * KEYS: slots, waiters. ARGV: token, max, ttl ms, waiter member ('': none),
 * waiters' ttl ms. 1: the slot is taken (and the delivery is no longer a
 * waiter); 0: at the cap (the delivery parked).
 */
const ACQUIRE = script(`${NOW}
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  if ARGV[4] ~= '' then redis.call('ZREM', KEYS[2], ARGV[4]) end
  return 1
end
if ARGV[4] == '' then return 0 end
redis.call('ZADD', KEYS[2], 'NX', now, ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 0`);

/**
 * KEYS: slots, waiters. ARGV: token, max, ttl ms. The oldest waiter, the slot
 * renewed for it; none: the slot given back. A slot that lapsed is taken again
 * only below the cap.
 */
const HAND_OFF = script(`${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return false
end
local w = redis.call('ZPOPMIN', KEYS[2])
if #w == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return w[1]`);
