import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from './generated/prisma/client.js';
import { newId } from './ids.js';

/**
 * API keys: `lh_` + 32 random bytes (base64url). They are high-entropy, so a
 * SHA-256 hash is stored and looked up by index (a random key of that entropy needs no slow hash); the plain key is
 * shown once, at creation or rotation.
 */
export function generateApiKey(): string {
  return `lh_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The part of a key safe to show again: "lh_AbCdEf…". */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, 9);
}

/** The seller's intake key (the post_url secret): 192 bits from a CSPRNG, URL-safe. */
export function generateIntakeKey(): string {
  return randomBytes(24).toString('base64url');
}

export interface CreatedAccount {
  account_id: string;
  api_key: string;
}

/** The insert of an account's API key: only its hash and its display prefix are stored. */
function insertApiKey(
  prisma: Pick<PrismaClient, 'apiKey'>,
  accountId: string,
  apiKey: string,
  name?: string,
) {
  return prisma.apiKey.create({
    data: {
      id: newId('apiKey'),
      accountId,
      keyHash: hashApiKey(apiKey),
      prefix: apiKeyPrefix(apiKey),
      ...(name !== undefined ? { name } : {}),
    },
  });
}

/** A key just made: its row's fields and the key itself, shown this once. */
export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  apiKey: string;
}

export type CreateApiKeyResult =
  | { kind: 'ok'; key: CreatedApiKey }
  | { kind: 'not_found' }
  | { kind: 'limit'; limit: number };

/**
 * A new named key of the account, unless it already holds `limit` active keys.
 * The account row is locked while counting, so two concurrent creates cannot
 * both pass the limit. `not_found` when no such account exists.
 */
export async function createApiKey(
  prisma: PrismaClient,
  accountId: string,
  name: string,
  limit: number,
): Promise<CreateApiKeyResult> {
  return prisma.$transaction(async (tx) => {
    const account = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    if (account.length === 0) return { kind: 'not_found' as const };
    const active = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
    if (active >= limit) return { kind: 'limit' as const, limit };
    const apiKey = generateApiKey();
    const row = await insertApiKey(tx, accountId, apiKey, name);
    return {
      kind: 'ok' as const,
      key: { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, apiKey },
    };
  });
}

/**
 * Revokes one key of the account: it fails from its next request on every api
 * process (requireApiKey reads the row each time). False when the account has
 * no such active key.
 */
export async function revokeApiKey(
  prisma: PrismaClient,
  accountId: string,
  keyId: string,
): Promise<boolean> {
  const { count } = await prisma.apiKey.updateMany({
    where: { id: keyId, accountId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/**
 * Replaces one key by a new one of the same name, in one transaction: the old
 * key stops working at once, the account's other keys keep working. Null when
 * the key is no longer active (revoked meanwhile).
 */
export async function replaceApiKey(
  prisma: PrismaClient,
  accountId: string,
  keyId: string,
): Promise<CreatedApiKey | null> {
  return prisma.$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({ where: { id: keyId, accountId, revokedAt: null } });
    if (!old) return null;
    const { count } = await tx.apiKey.updateMany({
      where: { id: keyId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count === 0) return null;
    const apiKey = generateApiKey();
    const row = await insertApiKey(tx, accountId, apiKey, old.name);
    return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, apiKey };
  });
}

/** Creates an account and its first API key in one transaction. */
export async function createAccount(prisma: PrismaClient, name: string): Promise<CreatedAccount> {
  const apiKey = generateApiKey();
  const accountId = newId('account');
  await prisma.$transaction([
    prisma.account.create({ data: { id: accountId, name } }),
    insertApiKey(prisma, accountId, apiKey),
  ]);
  return { account_id: accountId, api_key: apiKey };
}

/**
 * Revokes every active key of the account and issues a new one, in one
 * transaction: the old key stops working at once.
 */
export async function rotateApiKey(prisma: PrismaClient, accountId: string): Promise<string> {
  const apiKey = generateApiKey();
  await prisma.$transaction([
    prisma.apiKey.updateMany({
      where: { accountId, revokedAt: null },
      data: { revokedAt: new Date() },
    }),
    insertApiKey(prisma, accountId, apiKey),
  ]);
  return apiKey;
}

/** An account as `pnpm leadhook account list` shows it. */
export interface AccountSummary {
  id: string;
  name: string;
  created_at: string;
}

/** Every account, oldest first: what an operator picks an id from. */
export async function listAccounts(prisma: PrismaClient): Promise<AccountSummary[]> {
  const accounts = await prisma.account.findMany({
    select: { id: true, name: true, createdAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return accounts.map((a) => ({ id: a.id, name: a.name, created_at: a.createdAt.toISOString() }));
}

/**
 * rotateApiKey for an account named by id, from outside the API (the CLI, for an
 * owner who lost every key): null when no such account exists.
 */
export async function rotateApiKeyOf(
  prisma: PrismaClient,
  accountId: string,
): Promise<CreatedAccount | null> {
  const account = await prisma.account.findUnique({
    where: { id: accountId },
    select: { id: true },
  });
  if (!account) return null;
  return { account_id: account.id, api_key: await rotateApiKey(prisma, account.id) };
}
