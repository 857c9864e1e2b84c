import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage } from './components';

/**
 * The sign-in screen: the account's API key, checked with GET /account
 * (docs/dashboard.md, "Signing in").
 */
export function SignInScreen({
  signIn,
  initialError,
}: {
  signIn(apiKey: string): Promise<string | undefined>;
  initialError?: string | undefined;
}) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · leadhook dashboard';
    field.current?.focus();
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    const key = apiKey.trim();
    if (!key) {
      setError('Enter your API key.');
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    const failure = await signIn(key);
    setBusy(false);
    if (failure) {
      setError(failure);
      field.current?.focus();
    }
  }

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to leadhook</h1>
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          ref={field}
          value={apiKey}
          onInput={(event) => setApiKey(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sign-in-error api-key-help' : 'api-key-help'}
        />
        <p id="api-key-help" class="help">
          The key your account was created with (it starts with <code>lh_</code>). It is kept in
          this browser tab only, until you sign out or close the tab.
        </p>
        {error ? (
          <div id="sign-in-error">
            <ErrorMessage>{error}</ErrorMessage>
          </div>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
