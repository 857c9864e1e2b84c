/**
 * `pnpm leadhook …`: the operator's command line. stdout carries only the
 * command's result (one JSON line) so it can be piped; usage, errors and
 * everything else go to stderr, with a non-zero exit.
 */
import { loadConfigOrExit } from '@leadhook/config';
import {
  createAccount,
  createPrisma,
  isDatabaseUnavailable,
  MIGRATIONS_DIR,
  migrate,
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
    const config = loadConfigOrExit();
    try {
      // Quietly: the only thing on stdout is the result.
      await migrate({ databaseUrl: config.databaseUrl, migrationsDir: MIGRATIONS_DIR });
    } catch (err) {
      fail(describe('could not apply migrations', err));
    }
    const prisma = createPrisma({ databaseUrl: config.databaseUrl, poolMax: 1 });
    try {
      const created = await createAccount(prisma, command.name);
      process.stdout.write(`${JSON.stringify(created)}\n`);
    } catch (err) {
      fail(describe('could not create the account', err));
    } finally {
      await prisma.$disconnect();
    }
    break;
  }
}

function describe(what: string, err: unknown): string {
  if (isDatabaseUnavailable(err)) return `${what}: PostgreSQL is unreachable (check DATABASE_URL)`;
  return `${what}: ${err instanceof Error ? err.message : String(err)}`;
}
