/** Argument parsing of the `pnpm leadhook` CLI, apart from its effects so it can be tested. */
import { isUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '@leadhook/contracts';

export const USAGE = `usage: pnpm leadhook <command>

commands:
  account create NAME   create an account and its first API key; prints
                        {"account_id":"…","api_key":"…"} on stdout.
                        The API key is shown only this once: keep it.
  account list          list the accounts, oldest first; prints
                        [{"id":"…","name":"…","created_at":"…"}, …] on stdout.
  account rotate-key ID revoke every API key of account ID and issue a new one
                        (for an owner who lost the key); prints
                        {"account_id":"…","api_key":"…"} on stdout, once.
  api-key create --account ID --name NAME
                        add a named API key to account ID (its other keys
                        keep working); prints {"id":"…","name":"…",
                        "api_key":"…","prefix":"…","account_id":"…",
                        "created_at":"…"} on stdout, once.

options:
  -h, --help            show this help

Pending database migrations are applied first. Settings come from the
environment (DATABASE_URL, …; see README.md). stdout carries only the result:
pnpm leadhook account create NAME | jq -r .api_key
`;

/** Longest account name accepted (it is a label, shown in the dashboard). */
export const MAX_ACCOUNT_NAME_LENGTH = 200;

/** Longest API key name accepted, as the API's (docs/api.md, "API keys"). */
export const MAX_API_KEY_NAME_LENGTH = 100;

export type Command =
  | { kind: 'help' }
  | { kind: 'account-create'; name: string }
  | { kind: 'account-list' }
  | { kind: 'account-rotate-key'; accountId: string }
  | { kind: 'api-key-create'; accountId: string; name: string }
  | { kind: 'usage-error'; message: string };

const ACCOUNT_ACTIONS = ['create', 'list', 'rotate-key'] as const;

export function parseArgs(argv: readonly string[]): Command {
  if (argv.some((arg) => arg === '-h' || arg === '--help') || argv[0] === 'help') {
    return { kind: 'help' };
  }
  const [group, action, ...rest] = argv;
  if (group === undefined) return { kind: 'usage-error', message: 'no command given' };
  if (group === 'api-key') return parseApiKey(action, rest);
  if (group !== 'account') return { kind: 'usage-error', message: `unknown command "${group}"` };
  if (!ACCOUNT_ACTIONS.some((known) => known === action)) {
    return {
      kind: 'usage-error',
      message:
        action === undefined ? 'account needs a subcommand' : `unknown command "account ${action}"`,
    };
  }
  const option = rest.find((arg) => arg.startsWith('-'));
  if (option !== undefined) return { kind: 'usage-error', message: `unknown option "${option}"` };
  if (action === 'list') {
    if (rest.length > 0) return { kind: 'usage-error', message: 'account list takes no argument' };
    return { kind: 'account-list' };
  }
  if (action === 'rotate-key') {
    if (rest.length !== 1) {
      return { kind: 'usage-error', message: 'account rotate-key needs one account ID' };
    }
    return { kind: 'account-rotate-key', accountId: (rest[0] ?? '').trim() };
  }
  if (rest.length === 0) return { kind: 'usage-error', message: 'account create needs a NAME' };
  if (rest.length > 1) {
    return {
      kind: 'usage-error',
      message: `NAME is one argument; quote it: account create "${rest.join(' ')}"`,
    };
  }
  const name = (rest[0] ?? '').trim();
  if (name === '') return { kind: 'usage-error', message: 'NAME must not be blank' };
  if (isUnstorableText(name)) {
    return { kind: 'usage-error', message: `NAME ${UNSTORABLE_TEXT_MESSAGE}` };
  }
  if (name.length > MAX_ACCOUNT_NAME_LENGTH) {
    return {
      kind: 'usage-error',
      message: `NAME is longer than ${MAX_ACCOUNT_NAME_LENGTH} characters`,
    };
  }
  return { kind: 'account-create', name };
}

/** `api-key create --account ID --name NAME` (either order; `--opt=value` too). */
function parseApiKey(action: string | undefined, rest: readonly string[]): Command {
  if (action !== 'create') {
    return {
      kind: 'usage-error',
      message:
        action === undefined ? 'api-key needs a subcommand' : `unknown command "api-key ${action}"`,
    };
  }
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const match = /^--(account|name)(?:=(.*))?$/s.exec(arg);
    if (!match) {
      return {
        kind: 'usage-error',
        message: arg.startsWith('-')
          ? `unknown option "${arg}"`
          : `unexpected argument "${arg}" (quote a NAME with spaces: --name "a b")`,
      };
    }
    const option = match[1] ?? '';
    if (option in options) return { kind: 'usage-error', message: `--${option} given twice` };
    const value = match[2] ?? rest[++i];
    if (value === undefined) return { kind: 'usage-error', message: `--${option} needs a value` };
    options[option] = value;
  }
  const accountId = (options.account ?? '').trim();
  if (accountId === '')
    return { kind: 'usage-error', message: 'api-key create needs --account ID' };
  if (options.name === undefined) {
    return { kind: 'usage-error', message: 'api-key create needs --name NAME' };
  }
  const name = options.name.trim();
  if (name === '') return { kind: 'usage-error', message: 'NAME must not be blank' };
  if (isUnstorableText(name)) {
    return { kind: 'usage-error', message: `NAME ${UNSTORABLE_TEXT_MESSAGE}` };
  }
  if (name.length > MAX_API_KEY_NAME_LENGTH) {
    return {
      kind: 'usage-error',
      message: `NAME is longer than ${MAX_API_KEY_NAME_LENGTH} characters`,
    };
  }
  return { kind: 'api-key-create', accountId, name };
}
