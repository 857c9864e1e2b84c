import { hashApiKey, hashesEqual, type PrismaClient } from '@leadhook/db';
import type { RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { unauthorized } from './errors.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * How many hashes of keys that matched nothing are remembered, and for how long.
 * Keys are random, so a hash that matched no key will not match one later
 * (a new key is a new random string): remembering it is always right, and the
 * time only bounds memory. A revoked key is not cached here (its row exists),
 * so revocation takes effect at once.
 */
const UNKNOWN_KEYS_MAX = 10_000;
const UNKNOWN_KEYS_TTL_MS = 10 * 60_000;

/**
 * last_used_at is written at most once per this interval per key (docs/api.md,
 * "API keys"): the request that finds it older writes it, with a conditional
 * UPDATE so that concurrent requests on several api processes write it once.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * `Authorization: Bearer <API_KEY>`. Keys are stored as SHA-256 hashes and found by
 * an index on the hash; the stored hash is then compared in constant time. A
 * missing, unknown or revoked key gets the same 401. A key that matched nothing
 * is remembered (by hash) so that repeating it costs no database round trip.
 */
export function requireApiKey(prisma: PrismaClient): RequestHandler {
  const unknownKeys = new LRUCache<string, true>({
    max: UNKNOWN_KEYS_MAX,
    ttl: UNKNOWN_KEYS_TTL_MS,
  });
  return async (req, res, next) => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match?.[1]) throw unauthorized();
    const hash = hashApiKey(match[1]);
    if (unknownKeys.has(hash)) throw unauthorized();
    const key = await prisma.apiKey.findUnique({
      where: { keyHash: hash },
      select: { id: true, keyHash: true, accountId: true, revokedAt: true, lastUsedAt: true },
    });
    if (!key) unknownKeys.set(hash, true);
    if (!key || key.revokedAt !== null || !hashesEqual(key.keyHash, hash)) throw unauthorized();
    const now = Date.now();
    if (key.lastUsedAt === null || now - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      const stale = new Date(now - LAST_USED_RESOLUTION_MS);
      await prisma.apiKey.updateMany({
        where: {
          id: key.id,
          OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: stale } }],
        },
        data: { lastUsedAt: new Date(now) },
      });
    }
    res.locals.accountId = key.accountId;
    res.locals.apiKeyId = key.id;
    next();
  };
}

/** The account the request authenticated as (set by requireApiKey). */
export function accountIdOf(res: Response): string {
  const accountId: unknown = res.locals.accountId;
  if (typeof accountId !== 'string') throw new Error('route mounted without requireApiKey');
  return accountId;
}

/** The id of the API key the request authenticated with (set by requireApiKey). */
export function apiKeyIdOf(res: Response): string {
  const apiKeyId: unknown = res.locals.apiKeyId;
  if (typeof apiKeyId !== 'string') throw new Error('route mounted without requireApiKey');
  return apiKeyId;
}
