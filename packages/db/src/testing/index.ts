export { addPastHistoryPartitions } from './history-partitions.js';
export { rowsRead } from './rows-read.js';
export type { TestDatabase } from './test-database.js';
export {
  createTestDatabase,
  databaseUrl,
  TEMPLATE_DATABASE,
  TEST_ADMIN_URL,
  withAdmin,
} from './test-database.js';
