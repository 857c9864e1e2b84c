#!/usr/bin/env bash
# Creates the database that DATABASE_URL names (default
# postgresql://postgres@127.0.0.1:5432/leadhook) on the server it names, unless it
# exists. Run by scripts/bootstrap.sh; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

parsed=$(node scripts/database-url.mjs)
name=$(sed -n 1p <<<"$parsed")
admin_url=$(sed -n 2p <<<"$parsed")

# psql interpolates :'name' and :"name" (quoted as a literal and as an
# identifier) only in its input, not in -c.
exists=$(psql -w -X -At -v ON_ERROR_STOP=1 -v name="$name" "$admin_url" <<'SQL'
select 1 from pg_database where datname = :'name'
SQL
)
if [ "$exists" = 1 ]; then
  echo "bootstrap: database $name exists"
else
  echo "bootstrap: creating database $name"
  psql -w -X -q -v ON_ERROR_STOP=1 -v name="$name" "$admin_url" <<'SQL'
create database :"name"
SQL
fi
