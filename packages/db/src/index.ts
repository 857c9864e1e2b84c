export type {
  AccountSummary,
  CreateApiKeyResult,
  CreatedAccount,
  CreatedApiKey,
} from './accounts.js';
export {
  apiKeyPrefix,
  createAccount,
  createApiKey,
  generateApiKey,
  generateIntakeKey,
  hashApiKey,
  hashesEqual,
  listAccounts,
  replaceApiKey,
  revokeApiKey,
  rotateApiKey,
  rotateApiKeyOf,
} from './accounts.js';
export type { PrismaClient, PrismaOptions } from './client.js';
export { createPrisma, Prisma } from './client.js';
export type {
  CatalogDifference,
  CatalogEntry,
  FunctionFile,
  FunctionsMigration,
} from './functions.js';
export {
  applyFunctionFiles,
  compareCatalogs,
  functionsMigration,
  readCatalog,
  readFunctionFiles,
  tryFunctionsMigration,
} from './functions.js';
export type { IdKind } from './ids.js';
export { ID_PREFIXES, idFloor, isId, newId } from './ids.js';
export type { MicroBatcherOptions } from './micro-batcher.js';
export { isTransactionRollback, MicroBatcher } from './micro-batcher.js';
export type { CommentEdit, MigrateOptions, MigrationFile } from './migrator.js';
export {
  COMMENT_EDITS_FILE,
  commentStrippedHash,
  MigrationError,
  migrate,
  readCommentEdits,
  readMigrations,
} from './migrator.js';
export { FUNCTIONS_DIR, MIGRATIONS_DIR } from './paths.js';
export type { Pool, PoolClient, PoolOptions } from './pool.js';
export { createPool, escapeIdentifier, isDatabaseUnavailable } from './pool.js';
