#!/usr/bin/env node
/**
 * For scripts/create-database.sh, which runs before the workspace is installed
 * (so no dependency here): prints the name of the database that DATABASE_URL
 * names, then a URL of the `postgres` database on the same server with the same
 * credentials and parameters, from which it can be created. DATABASE_URL's
 * default is the one the services use (packages/config). Exits 1, naming the
 * setting, when it is not a PostgreSQL URL with a database name.
 */
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/leadhook';

function fail(reason) {
  // The URL itself is not printed: it may hold a password.
  process.stderr.write(`DATABASE_URL: ${reason}\n`);
  process.exit(1);
}

const raw = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
let url;
try {
  url = new URL(raw);
} catch {
  fail('not a URL (expected postgresql://user@host:port/database)');
}
if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
  fail('not a postgresql:// URL');
}
let name;
try {
  name = decodeURIComponent(url.pathname.slice(1));
} catch {
  fail('the database name is not valid percent-encoding');
}
if (name === '' || name.includes('/')) fail('names no database (expected …/database)');
// One name per line is the contract with the shell script.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
if (/[\u0000-\u001f]/.test(name)) fail('the database name has control characters');

const admin = new URL(url.href);
admin.pathname = '/postgres';
process.stdout.write(`${name}\n${admin.href}\n`);
