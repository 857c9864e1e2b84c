import { createLogger } from '@leadhook/observability';
import { createRedis } from '@leadhook/queue';
import { forgetRedis, TEST_REDIS_URL, waitFor } from '@leadhook/testkit';
import type { Redis } from 'ioredis';
import { SubscriptionCap } from './subscription-cap.js';
import { Harness } from './testing/harness.js';

// The cap's own rules, on a real Redis (its scripts run there): at most `max`
// slots per subscription, waiters oldest first, a slot handed to a waiter kept,
// and a slot that is never given back lapsing after its ttl.

const logger = createLogger({ service: 'webhook-worker', level: 'silent' });
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  redis = createRedis(TEST_REDIS_URL);
  await waitFor(() => redis.status === 'ready');
});

beforeEach(() => {
  prefix = Harness.newPrefix();
});

afterEach(async () => {
  await forgetRedis(prefix);
});

afterAll(() => {
  redis.disconnect();
});

describe('SubscriptionCap', () => {
  it('gives at most `max` slots of a subscription, each subscription its own', async () => {
    const cap = new SubscriptionCap(redis, prefix, 2, 60_000, logger);
    const a = await cap.acquire('sub_a');
    const b = await cap.acquire('sub_a');
    expect(a?.token).toEqual(expect.any(String));
    expect(b?.token).toEqual(expect.any(String));
    expect(await cap.acquire('sub_a')).toBeNull();
    expect(await cap.acquire('sub_b')).not.toBeNull();
    expect(await cap.state('sub_a')).toEqual({ held: 2, waiting: 0 });
    if (a) await cap.release(a);
    expect(await cap.acquire('sub_a')).not.toBeNull();
  });

  it('parks deliveries at the cap, and hands them to a holder oldest first, keeping its slot', async () => {
    const cap = new SubscriptionCap(redis, prefix, 1, 60_000, logger);
    const holder = await cap.acquire('sub_a');
    if (!holder) throw new Error('no slot');
    expect(await cap.park('sub_a', { deliveryId: 'dlv_1', attempt: 0 })).toBeNull();
    expect(await cap.park('sub_a', { deliveryId: 'dlv_2', attempt: 3 })).toBeNull();
    // Parked again (its job came back): it keeps its place.
    expect(await cap.park('sub_a', { deliveryId: 'dlv_1', attempt: 0 })).toBeNull();
    expect(await cap.state('sub_a')).toEqual({ held: 1, waiting: 2 });

    expect(await cap.handOff(holder)).toEqual({ deliveryId: 'dlv_1', attempt: 0 });
    expect(await cap.handOff(holder)).toEqual({ deliveryId: 'dlv_2', attempt: 3 });
    // Still the one slot all along; none waits now, so the slot is given back.
    expect(await cap.acquire('sub_a')).toBeNull();
    expect(await cap.handOff(holder)).toBeNull();
    expect(await cap.state('sub_a')).toEqual({ held: 0, waiting: 0 });
  });

  it('takes a slot freed before the delivery parks, instead of parking it', async () => {
    const cap = new SubscriptionCap(redis, prefix, 1, 60_000, logger);
    const holder = await cap.acquire('sub_a');
    if (!holder) throw new Error('no slot');
    expect(await cap.acquire('sub_a')).toBeNull();
    await cap.release(holder);
    expect(await cap.park('sub_a', { deliveryId: 'dlv_1', attempt: 0 })).not.toBeNull();
    expect(await cap.state('sub_a')).toEqual({ held: 1, waiting: 0 });
  });

  it('lets a slot never given back (its process died) lapse after its ttl', async () => {
    const cap = new SubscriptionCap(redis, prefix, 1, 300, logger);
    const lost = await cap.acquire('sub_a');
    expect(lost).not.toBeNull();
    expect(await cap.acquire('sub_a')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await cap.acquire('sub_a')).not.toBeNull();
    // The lapsed holder does not take a waiter over the cap.
    expect(await cap.park('sub_a', { deliveryId: 'dlv_1', attempt: 0 })).toBeNull();
    if (lost) expect(await cap.handOff(lost)).toBeNull();
    expect(await cap.state('sub_a')).toEqual({ held: 1, waiting: 1 });
  });

  it('fails open while Redis is unreachable', async () => {
    const away = createRedis('redis://127.0.0.1:1');
    try {
      const cap = new SubscriptionCap(away, prefix, 1, 60_000, logger);
      const slot = await cap.acquire('sub_a');
      expect(slot).toEqual({ subscriptionId: 'sub_a', token: null });
      if (slot) expect(await cap.handOff(slot)).toBeNull();
    } finally {
      away.disconnect();
    }
  });
});
