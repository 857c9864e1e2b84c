#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded on
# machines without a route to Prisma's binary host. `prisma generate` needs no
# engine; commands that do (migrate, db push) fail loudly here instead of
# silently doing nothing (an empty file makes them exit 0 having done nothing).
echo "leadhook: the native Prisma schema engine is not installed; migrations are applied by 'pnpm migrate' (packages/db migrator)" >&2
exit 1
