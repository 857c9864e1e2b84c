import { defineConfig } from 'prisma/config';

// Prisma 7 reads no .env file by itself; DATABASE_URL comes from the environment.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // generate needs no database; a default keeps it working where none is set.
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/leadhook' },
});
