import { useEffect, useRef, useState } from 'preact/hooks';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import '../ui/screens.css';
import { API_KEY_STORAGE_KEY, useSession } from '../session';
import { CopyButton } from '../ui/copy-button';
import { ConfirmDialog } from '../ui/dialog';
import { fieldProblems } from '../ui/form-errors';
import { formatDateTime } from '../ui/format';

type ApiKey = Schema<'ApiKey'>;
type NewKey = Schema<'ApiKeyWithSecret'>;

/** The key this tab is signed in with (src/session.tsx keeps it in sessionStorage). */
function signedInKey(): string {
  try {
    return sessionStorage.getItem(API_KEY_STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

/** The new key, once: it lives in this component's state only, so a reload forgets it. */
function ShownOnce({ created, onDone }: { created: NewKey; onDone(): void }) {
  const field = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), []);

  return (
    <section class="key-panel" aria-labelledby="new-key-title" tabIndex={-1} ref={panel}>
      <h3 id="new-key-title">Your new API key “{created.name}”</h3>
      <p>
        <strong>It is shown only now.</strong> Copy it and keep it where your integration stores
        secrets: leadhook keeps only its first characters (<code>{created.prefix}</code>), so it
        cannot be shown again after you leave or reload this page.
      </p>
      <label for="new-key">API key</label>
      <div class="inline">
        <input
          id="new-key"
          ref={field}
          readOnly
          value={created.api_key}
          spellcheck={false}
          autocomplete="off"
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton
          text={created.api_key}
          what="the API key"
          select={() => field.current?.select()}
          primary
        />
      </div>
      <button type="button" class="button-secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated(key: NewKey): void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  async function submit(event: Event) {
    event.preventDefault();
    if (!name.trim()) {
      setError('Enter a name for the key, such as the integration it is for (Zapier).');
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const {
        data,
        error: failure,
        response,
      } = await api.POST('/account/api_keys', {
        body: { name },
      });
      if (data) {
        setName('');
        onCreated(data);
      } else {
        setError(fieldProblems(failure).name ?? apiErrorText(failure, response));
        field.current?.focus();
      }
    } catch (cause) {
      setError(apiErrorText(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="create-key" onSubmit={submit} noValidate aria-label="Create API key">
      <label for="key-name">Name</label>
      <div class="inline">
        <input
          id="key-name"
          ref={field}
          value={name}
          maxLength={100}
          autocomplete="off"
          onInput={(e) => setName(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'key-name-error key-name-help' : 'key-name-help'}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create API key'}
        </button>
      </div>
      <p id="key-name-help" class="help">
        What the key is for, such as Zapier or your CRM: one key per integration lets you revoke one
        without touching the others.
      </p>
      {error ? (
        <div id="key-name-error">
          <ErrorMessage>{error}</ErrorMessage>
        </div>
      ) : null}
    </form>
  );
}

/** The confirmation before DELETE /account/api_keys/{id} (Cancel is focused: Enter does not revoke). */
function RevokeDialog({
  apiKey,
  own,
  onCancel,
  onRevoked,
}: {
  apiKey: ApiKey;
  own: boolean;
  onCancel(): void;
  onRevoked(): void;
}) {
  const { api } = useSession();
  async function revoke(): Promise<string | undefined> {
    try {
      const { error: failure, response } = await api.DELETE('/account/api_keys/{id}', {
        params: { path: { id: apiKey.id } },
      });
      if (!response.ok && response.status !== 404) return apiErrorText(failure, response);
      onRevoked();
      return undefined;
    } catch (cause) {
      return apiErrorText(cause);
    }
  }
  return (
    <ConfirmDialog
      title={`Revoke the API key “${apiKey.name}”?`}
      confirmLabel={own ? 'Revoke and sign out' : 'Revoke key'}
      danger
      onConfirm={revoke}
      onClose={onCancel}
    >
      <p>
        The key starting <code>{apiKey.prefix}</code> stops working at once: everything using it
        gets “unauthorized” (401) from its next request on. This cannot be undone.
      </p>
      {own ? (
        <p class="warning" role="note">
          <strong>This is the key this dashboard is signed in with.</strong> Revoking it signs you
          out; you will need another key of this account to sign in again.
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

function KeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke(key: ApiKey): void }) {
  const current = signedInKey();
  return (
    <table class="data-table">
      <caption class="visually-hidden">The account's API keys, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Starts with</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} data-key-id={key.id}>
            <td>
              {key.name}
              {current.startsWith(key.prefix) ? (
                <span class="tag">this dashboard's key</span>
              ) : null}
            </td>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{formatDateTime(key.created_at)}</td>
            <td>{key.last_used_at ? formatDateTime(key.last_used_at) : 'Never'}</td>
            <td>
              <button
                type="button"
                class="button-secondary"
                aria-label={`Revoke ${key.name} (${key.prefix}…)`}
                onClick={() => onRevoke(key)}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How Zapier, n8n and Make connect to this leadhook (docs/dashboard.md, "Settings > Integrations"). */
function ConnectSteps() {
  const origin = window.location.origin;
  const base = `${origin}/api/v1`;
  return (
    <section aria-labelledby="connect-title">
      <h2 id="connect-title">Connect Zapier, n8n or Make</h2>
      <ol class="connect-steps">
        <li>
          Create an API key above named after the platform (“Zapier”, “n8n”, “Make”) and copy it.
        </li>
        <li>
          <strong>Zapier</strong>: leadhook ships a ready Zapier app (
          <code>integrations/zapier</code> in its repository): push it to your Zapier account as a
          private integration, then connect it with this leadhook's address{' '}
          <code data-testid="base-url">{origin}</code> and the key. It offers <em>New Activity</em>{' '}
          (instant), <em>Create Lead</em>, <em>Report Activity</em> and <em>Find Lead</em>; turning
          a Zap off unsubscribes its hook.
        </li>
        <li>
          <strong>n8n or Make</strong>: use their HTTP module with the base URL{' '}
          <code data-testid="api-base-url">{base}</code> and the header{' '}
          <code>Authorization: Bearer &lt;your key&gt;</code>. Check it with{' '}
          <code>GET {base}/account</code>: it answers your account's name.
        </li>
        <li>
          <strong>Trigger on activities</strong> (a lead replied, qualified, opted out…): subscribe
          the platform's webhook URL once with <code>POST {base}/hooks</code> and a body{' '}
          <code>{'{"target_url": "…", "events": ["*"], "outcomes": ["*"]}'}</code> (or the labels
          you want); keep the answer's <code>id</code> and signing <code>secret</code>. Sample
          bodies for field mapping: <code>GET {base}/hooks/samples?label=qualified</code>.
        </li>
        <li>
          <strong>Actions</strong>: create a lead in a source with{' '}
          <code>POST {base}/marketing_sources/&lt;source id&gt;/leads</code> (send an{' '}
          <code>Idempotency-Key</code> header so a retried step is not a second lead), report what
          happened to a lead with <code>POST {base}/leads/&lt;lead id&gt;/activities</code>, find
          one with <code>GET {base}/leads?phone=…</code>.
        </li>
        <li>
          n8n and Make do not unsubscribe when a workflow or scenario is turned off: delete its hook
          with <code>DELETE {base}/hooks/&lt;id&gt;</code> (<code>GET {base}/hooks</code> lists
          them). To cut a platform off entirely, revoke its key here.
        </li>
      </ol>
      <p class="help">
        Every operation, with its fields and answers, is in the{' '}
        <a href="/api/v1/docs">API reference</a>.
      </p>
    </section>
  );
}

type KeysState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'loaded'; keys: ApiKey[]; next: string | null };

/**
 * Settings > Integrations: the account's named API keys (create, shown once; revoke,
 * confirmed) and how to connect an automation platform (docs/dashboard.md).
 */
export function SettingsIntegrationsScreen() {
  const { api, signOut } = useSession();
  const [state, setState] = useState<KeysState>({ kind: 'loading' });
  const [created, setCreated] = useState<NewKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [notice, setNotice] = useState<string>();
  const keysHeading = useRef<HTMLHeadingElement>(null);

  async function load(cursor?: string) {
    try {
      const { data, error, response } = await api.GET('/account/api_keys', {
        params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } },
      });
      if (!data) {
        setState({ kind: 'failed', message: apiErrorText(error, response) });
        return;
      }
      setState((previous) => ({
        kind: 'loaded',
        keys: cursor && previous.kind === 'loaded' ? [...previous.keys, ...data.data] : data.data,
        next: data.next_cursor,
      }));
    } catch (cause) {
      setState({ kind: 'failed', message: apiErrorText(cause) });
    }
  }

  useEffect(() => {
    void load();
  }, [api]);

  const own = revoking ? signedInKey().startsWith(revoking.prefix) : false;
  return (
    <Screen title="Integrations">
      <section aria-labelledby="keys-title">
        <h2 id="keys-title" tabIndex={-1} ref={keysHeading}>
          API keys
        </h2>
        <p>
          Every key gives the same access to this account. Give each integration its own, so that
          you can revoke one without touching the others.
        </p>
        <CreateKeyForm
          onCreated={(key) => {
            setNotice(undefined);
            setCreated(key);
            void load();
          }}
        />
        {created ? <ShownOnce created={created} onDone={() => setCreated(undefined)} /> : null}
        <p aria-live="polite" class="help">
          {notice ?? ''}
        </p>
        {state.kind === 'loading' ? (
          <p>Loading the API keys…</p>
        ) : state.kind === 'failed' ? (
          <ErrorMessage>{state.message}</ErrorMessage>
        ) : (
          <>
            <KeysTable keys={state.keys} onRevoke={setRevoking} />
            {state.next ? (
              <p>
                <button type="button" onClick={() => void load(state.next!)}>
                  Load more
                </button>
              </p>
            ) : null}
          </>
        )}
        {revoking ? (
          <RevokeDialog
            apiKey={revoking}
            own={own}
            onCancel={() => setRevoking(undefined)}
            onRevoked={() => {
              if (own) {
                signOut();
                return;
              }
              setNotice(`The API key “${revoking.name}” was revoked.`);
              setRevoking(undefined);
              // Its row (and Revoke button) is gone: focus goes back to the section,
              // once the modal dialog has closed (the page is inert until then).
              setTimeout(() => keysHeading.current?.focus(), 0);
              if (created?.id === revoking.id) setCreated(undefined);
              void load();
            }}
          />
        ) : null}
      </section>
      <ConnectSteps />
    </Screen>
  );
}
