import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './settings.js';

/**
 * Deletes every Redis key under a queue prefix (only one queue's with
 * `queueName`): what a test file enqueued, or Redis restarted with nothing on disk.
 * Returns how many keys went.
 */
export async function forgetRedis(
  prefix: string,
  { queueName, redisUrl = TEST_REDIS_URL }: { queueName?: string; redisUrl?: string } = {},
): Promise<number> {
  const redis = new Redis(redisUrl);
  try {
    const pattern = queueName ? `${prefix}:${queueName}:*` : `${prefix}:*`;
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
