export { addPastHistoryPartitions } from './history-partitions.js';
export { migrationsBefore } from './migrations-before.js';
export { rowsRead } from './rows-read.js';
export type { TestDatabase } from './test-database.js';
export {
  createTestDatabase,
  databaseUrl,
  TEMPLATE_DATABASE,
  TEST_ADMIN_URL,
  TEST_OUTBOX_PAST_DAYS,
  withAdmin,
} from './test-database.js';
