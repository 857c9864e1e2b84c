import {
  type Account,
  type AccountUpdate,
  API_KEYS_PER_ACCOUNT,
  type ApiKey,
  type ApiKeyRotation,
  type ApiKeyWithSecret,
} from '@leadhook/contracts';
import {
  createApiKey,
  type PrismaClient,
  replaceApiKey,
  revokeApiKey as revokeKey,
} from '@leadhook/db';
import { ApiError } from './errors.js';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';

/** The authenticated account with the prefix of its active key. */
export async function getAccount(prisma: PrismaClient, accountId: string): Promise<Account> {
  const row = await prisma.account.findUniqueOrThrow({
    where: { id: accountId },
    include: {
      apiKeys: { where: { revokedAt: null }, orderBy: { id: 'desc' }, take: 1 },
    },
  });
  return {
    id: row.id,
    name: row.name,
    duplicate_window_days: row.duplicateWindowDays,
    api_key_prefix: row.apiKeys[0]?.prefix ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function updateAccount(
  prisma: PrismaClient,
  accountId: string,
  input: AccountUpdate,
): Promise<Account> {
  await prisma.account.update({
    where: { id: accountId },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.duplicate_window_days !== undefined
        ? { duplicateWindowDays: input.duplicate_window_days }
        : {}),
    },
  });
  return getAccount(prisma, accountId);
}

/**
 * Replaces the key the request authenticated with by a new key of the same name
 * (docs/api.md, "API keys"): the calling key fails from the next request, the
 * account's other keys keep working. Null when the calling key was revoked
 * meanwhile.
 */
export async function rotateAccountKey(
  prisma: PrismaClient,
  accountId: string,
  apiKeyId: string,
): Promise<ApiKeyRotation | null> {
  const key = await replaceApiKey(prisma, accountId, apiKeyId);
  return key && { api_key: key.apiKey, api_key_prefix: key.prefix };
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A key as the API shows it: never the key nor its hash. */
function presentApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** A new named key; 409 `api_key_limit` when the account already holds the most it may. */
export async function createAccountKey(
  prisma: PrismaClient,
  accountId: string,
  name: string,
): Promise<ApiKeyWithSecret> {
  const result = await createApiKey(prisma, accountId, name.trim(), API_KEYS_PER_ACCOUNT);
  if (result.kind === 'limit') {
    throw new ApiError(
      409,
      'api_key_limit',
      `The account already has ${result.limit} active API keys, the most it may hold: revoke one first.`,
    );
  }
  // The account authenticated this very request: it exists.
  if (result.kind === 'not_found') throw new Error('the authenticated account is gone');
  const { key } = result;
  return { ...presentApiKey({ ...key, lastUsedAt: null }), api_key: key.apiKey };
}

/** A page of the account's active keys, newest first. */
export async function listAccountKeys(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
): Promise<Page<ApiKey>> {
  const rows = await prisma.apiKey.findMany({
    ...keyset(page, { accountId, revokedAt: null }),
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true },
  });
  return pageOf(rows, page, presentApiKey);
}

/** Revokes one of the account's active keys: false when there is none with that id. */
export function revokeAccountKey(
  prisma: PrismaClient,
  accountId: string,
  keyId: string,
): Promise<boolean> {
  return revokeKey(prisma, accountId, keyId);
}
