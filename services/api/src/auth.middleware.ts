import { hashApiKey, hashesEqual, type PrismaClient } from '@leadhook/db';
import type { RequestHandler, Response } from 'express';
import { unauthorized } from './errors.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * `Authorization: Bearer <API_KEY>`. Keys are stored as SHA-256 hashes and found by
 * an index on the hash; the stored hash is then compared in constant time. A
 * missing, unknown or revoked key gets the same 401.
 */
export function requireApiKey(prisma: PrismaClient): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match?.[1]) throw unauthorized();
    const hash = hashApiKey(match[1]);
    const key = await prisma.apiKey.findUnique({
      where: { keyHash: hash },
      select: { keyHash: true, accountId: true, revokedAt: true },
    });
    if (!key || key.revokedAt !== null || !hashesEqual(key.keyHash, hash)) throw unauthorized();
    res.locals.accountId = key.accountId;
    next();
  };
}

/** The account the request authenticated as (set by requireApiKey). */
export function accountIdOf(res: Response): string {
  const accountId: unknown = res.locals.accountId;
  if (typeof accountId !== 'string') throw new Error('route mounted without requireApiKey');
  return accountId;
}
