import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { type ApiClient, createApiClient, type Schema } from './api/client';
import { apiErrorText } from './api/errors';

/**
 * The API key lives in this tab's sessionStorage only (docs/dashboard.md, "Signing in"):
 * gone when the tab closes, never in localStorage or a cookie.
 */
export const API_KEY_STORAGE_KEY = 'leadhook.apiKey';

export type Account = Schema<'Account'>;

/** A signed-in session: the account and a client that sends its key. */
export interface Session {
  account: Account;
  api: ApiClient;
  signOut(): void;
}

type State =
  | { kind: 'checking' }
  | { kind: 'signed-out'; error?: string }
  | { kind: 'signed-in'; account: Account; api: ApiClient };

/** Checks a key with GET /account: the account, or the failure in words. */
async function check(apiKey: string): Promise<{ account: Account; api: ApiClient } | string> {
  const api = createApiClient(apiKey);
  try {
    const { data, error, response } = await api.GET('/account');
    if (data) return { account: data, api };
    return apiErrorText(error, response);
  } catch (cause) {
    return apiErrorText(cause);
  }
}

function readKey(): string | null {
  try {
    return sessionStorage.getItem(API_KEY_STORAGE_KEY);
  } catch {
    return null;
  }
}

interface SessionControl {
  state: State;
  /** Checks the key and keeps it when the API accepts it; the error in words when not. */
  signIn(apiKey: string): Promise<string | undefined>;
  signOut(): void;
}

const SessionContext = createContext<SessionControl | null>(null);

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [state, setState] = useState<State>(() =>
    readKey() ? { kind: 'checking' } : { kind: 'signed-out' },
  );

  const signOut = useCallback(() => {
    sessionStorage.removeItem(API_KEY_STORAGE_KEY);
    setState({ kind: 'signed-out' });
  }, []);

  const signIn = useCallback(async (apiKey: string) => {
    const result = await check(apiKey);
    if (typeof result === 'string') return result;
    sessionStorage.setItem(API_KEY_STORAGE_KEY, apiKey);
    setState({ kind: 'signed-in', ...result });
    return undefined;
  }, []);

  // A reload in the same tab: check the kept key again (it may have been rotated).
  useEffect(() => {
    const kept = readKey();
    if (!kept) return;
    void check(kept).then((result) => {
      if (typeof result !== 'string') {
        setState({ kind: 'signed-in', ...result });
        return;
      }
      sessionStorage.removeItem(API_KEY_STORAGE_KEY);
      setState({ kind: 'signed-out', error: result });
    });
  }, []);

  const control = useMemo(() => ({ state, signIn, signOut }), [state, signIn, signOut]);
  return <SessionContext.Provider value={control}>{children}</SessionContext.Provider>;
}

export function useSessionControl(): SessionControl {
  const control = useContext(SessionContext);
  if (!control) throw new Error('useSessionControl is used outside SessionProvider');
  return control;
}

/**
 * The signed-in session, for screens inside the app shell: `const { api, account } = useSession()`.
 */
export function useSession(): Session {
  const { state, signOut } = useSessionControl();
  if (state.kind !== 'signed-in') throw new Error('useSession is used before sign in');
  return { account: state.account, api: state.api, signOut };
}

/** The typed API client of the signed-in session (src/api/client.ts). */
export function useApi(): ApiClient {
  return useSession().api;
}
