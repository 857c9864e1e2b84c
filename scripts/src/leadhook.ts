/**
 * `pnpm leadhook …`: the operator's command line. stdout carries only the
 * command's result (one JSON line) so it can be piped; usage, errors and
 * everything else go to stderr, with a non-zero exit.
 */
import { loadConfigOrExit } from '@leadhook/config';
import { API_KEYS_PER_ACCOUNT } from '@leadhook/contracts';
import {
  createAccount,
  createApiKey,
  createPrisma,
  isDatabaseUnavailable,
  listAccounts,
  MIGRATIONS_DIR,
  migrate,
  type PrismaClient,
  rotateApiKeyOf,
} from '@leadhook/db';
import { parseArgs, USAGE } from './cli.js';

/** Exit code of a command-line usage error (as in sysexits' EX_USAGE spirit, 2 like most CLIs). */
const EXIT_USAGE = 2;

function fail(message: string): never {
  process.stderr.write(`leadhook: ${message}\n`);
  process.exit(1);
}

const command = parseArgs(process.argv.slice(2));
switch (command.kind) {
  case 'help':
    process.stdout.write(USAGE);
    break;
  case 'usage-error':
    process.stderr.write(`leadhook: ${command.message}\n\n${USAGE}`);
    process.exit(EXIT_USAGE);
    break;
  case 'account-create': {
    const { name } = command;
    await withDatabase('could not create the account', async (prisma) => {
      const created = await createAccount(prisma, name);
      process.stdout.write(`${JSON.stringify(created)}\n`);
      return undefined;
    });
    break;
  }
  case 'account-list':
    await withDatabase('could not list the accounts', async (prisma) => {
      process.stdout.write(`${JSON.stringify(await listAccounts(prisma))}\n`);
      return undefined;
    });
    break;
  case 'account-rotate-key': {
    const { accountId } = command;
    await withDatabase('could not rotate the API key', async (prisma) => {
      const rotated = await rotateApiKeyOf(prisma, accountId);
      if (!rotated) {
        return `no account with id "${accountId}" (pnpm leadhook account list shows them)`;
      }
      process.stdout.write(`${JSON.stringify(rotated)}\n`);
      return undefined;
    });
    break;
  }
  case 'api-key-create': {
    const { accountId, name } = command;
    await withDatabase('could not create the API key', async (prisma) => {
      const result = await createApiKey(prisma, accountId, name, API_KEYS_PER_ACCOUNT);
      if (result.kind === 'not_found') {
        return `no account with id "${accountId}" (pnpm leadhook account list shows them)`;
      }
      if (result.kind === 'limit') {
        return `account "${accountId}" already has ${result.limit} active API keys (the most it may hold): revoke one first (DELETE /api/v1/account/api_keys/{id})`;
      }
      const { key } = result;
      process.stdout.write(
        `${JSON.stringify({
          id: key.id,
          name: key.name,
          api_key: key.apiKey,
          prefix: key.prefix,
          account_id: accountId,
          created_at: key.createdAt.toISOString(),
        })}\n`,
      );
      return undefined;
    });
    break;
  }
}

/**
 * Applies pending migrations (quietly: the only thing on stdout is the result),
 * then runs `work` on a client. What `work` returns is an error for stderr (exit 1).
 */
async function withDatabase(
  what: string,
  work: (prisma: PrismaClient) => Promise<string | undefined>,
): Promise<void> {
  const config = loadConfigOrExit();
  try {
    await migrate({ databaseUrl: config.databaseUrl, migrationsDir: MIGRATIONS_DIR });
  } catch (err) {
    fail(describe('could not apply migrations', err));
  }
  const prisma = createPrisma({ databaseUrl: config.databaseUrl, poolMax: 1 });
  let error: string | undefined;
  try {
    error = await work(prisma);
  } catch (err) {
    error = describe(what, err);
  } finally {
    await prisma.$disconnect();
  }
  if (error) fail(error);
}

function describe(what: string, err: unknown): string {
  if (isDatabaseUnavailable(err)) return `${what}: PostgreSQL is unreachable (check DATABASE_URL)`;
  return `${what}: ${err instanceof Error ? err.message : String(err)}`;
}
