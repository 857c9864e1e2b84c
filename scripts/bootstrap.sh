#!/usr/bin/env bash
# Prepares a fresh Debian machine with Node 20 for leadhook: pnpm (the version
# package.json pins, through corepack), PostgreSQL and Redis (apt-get if absent;
# started if not running), Debian's Chromium for the dashboard's browser tests, the database DATABASE_URL names, and the workspace's
# packages. Says what it changes before changing it; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }

# pnpm: the version in package.json's packageManager. A pnpm already installed
# is never replaced: if it is another version, this script installs through
# corepack's copy of the pinned one and leaves yours as it is.
PNPM_VERSION=$(node -p 'require("./package.json").packageManager.replace(/^pnpm@/, "").split("+")[0]')
# Fetches the pinned pnpm into corepack's cache (no prompt) and checks it runs.
# Says so first: the fetch writes to corepack's cache, which is a change too.
corepack_pnpm_ready() {
  command -v corepack >/dev/null 2>&1 || return 1
  echo "bootstrap: asking corepack for pnpm $PNPM_VERSION (fetched into its cache if absent)"
  [ "$(COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]
}
pnpm_cmd=(pnpm)
if command -v pnpm >/dev/null 2>&1; then
  found=$(pnpm --version 2>/dev/null || echo unknown)
  if [ "$found" != "$PNPM_VERSION" ]; then
    if corepack_pnpm_ready; then
      echo "bootstrap: pnpm $found found, this project pins $PNPM_VERSION: installing with corepack's pnpm $PNPM_VERSION (corepack pnpm); your pnpm is left as it is"
      pnpm_cmd=(env COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack pnpm)
    else
      echo "bootstrap: pnpm $found found, this project pins $PNPM_VERSION, and corepack cannot provide it: installing with pnpm $found"
    fi
  fi
elif corepack_pnpm_ready; then
  echo "bootstrap: enabling pnpm $PNPM_VERSION through corepack (corepack enable pnpm: adds pnpm and pnpx beside $(command -v corepack))"
  as_root corepack enable pnpm
else
  # Node without corepack, or a registry whose metadata corepack cannot verify.
  echo "bootstrap: corepack cannot provide pnpm $PNPM_VERSION; installing it with npm (npm install --global pnpm@$PNPM_VERSION)"
  as_root npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >/dev/null
fi

apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "bootstrap: installing PostgreSQL"
  apt_install postgresql
fi
if ! command -v redis-server >/dev/null 2>&1; then
  echo "bootstrap: installing Redis"
  apt_install redis-server
fi
# The documented examples talk to the service with curl and check signatures
# with openssl (README "A first session", docs/webhooks.md).
for tool in curl openssl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "bootstrap: installing $tool"
    apt_install "$tool"
  fi
done

# The dashboard's browser tests drive Debian's Chromium at /usr/bin/chromium through
# playwright-core, which never downloads a browser (docs/dashboard.md, "Browser tests").
if [ ! -x /usr/bin/chromium ]; then
  echo "bootstrap: installing Chromium (Debian's chromium package, for the dashboard's browser tests)"
  apt_install chromium
fi

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "bootstrap: starting PostgreSQL"
  version=$(ls /etc/postgresql | sort -V | tail -1)
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "bootstrap: starting Redis"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi

# Local development trusts loopback connections as the postgres user; a fresh
# Debian install asks for a password on TCP, so allow it for 127.0.0.1 only.
# (psql -w: never prompt; an interactive run would otherwise wait for a password.)
if ! psql -w -h 127.0.0.1 -U postgres -d postgres -Atc 'select 1' >/dev/null 2>&1; then
  hba=$(as_postgres psql -Atc 'show hba_file' 2>/dev/null || true)
  if [ -n "$hba" ]; then
    echo "bootstrap: trusting 127.0.0.1 for user postgres in $hba"
    as_root sed -i '1i host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust' "$hba"
    as_postgres psql -Atc 'select pg_reload_conf()' >/dev/null
  fi
fi
bash scripts/create-database.sh

"${pnpm_cmd[@]}" install --frozen-lockfile
