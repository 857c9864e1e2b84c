import type { Account, AccountUpdate, ApiKeyRotation } from '@leadhook/contracts';
import { apiKeyPrefix, type PrismaClient, rotateApiKey } from '@leadhook/db';

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

/** Revokes every active key and issues one; the old key fails from the next request. */
export async function rotateAccountKey(
  prisma: PrismaClient,
  accountId: string,
): Promise<ApiKeyRotation> {
  const apiKey = await rotateApiKey(prisma, accountId);
  return { api_key: apiKey, api_key_prefix: apiKeyPrefix(apiKey) };
}
