import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { ApiClient, Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage } from '../components';
import { useApi } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { FieldError, type FormErrors, formErrorsOf, invalidProps } from '../ui/form-errors';
import { formatDateTime } from '../ui/format';
import '../ui/ui.css';
import { CopyButton } from '../ui/copy-button';

type Subscription = Schema<'Subscription'>;
type CatalogEntry = Schema<'ActivityCatalog'>['data'][number];
type TestResult = Schema<'SubscriptionTestResult'>;

/** The labels a subscription may select: the catalog without its reserved group. */
interface Labels {
  events: CatalogEntry[];
  outcomes: CatalogEntry[];
}

async function loadLabels(api: ApiClient): Promise<Labels | string> {
  try {
    const { data, error, response } = await api.GET('/activity_catalog');
    if (error || !data) return apiErrorText(error, response);
    const selectable = data.data.filter((entry) => entry.group !== 'reserved');
    return {
      events: selectable.filter((entry) => entry.type === 'event'),
      outcomes: selectable.filter((entry) => entry.type === 'outcome'),
    };
  } catch (cause) {
    return apiErrorText(cause);
  }
}

const PAGE_SIZE = 25;

/**
 * One page of a playbook's subscriptions, or of the account-wide ones (`scope=account`:
 * the API leaves the playbooks' out), from `cursor`.
 */
async function subscriptionsPage(
  api: ApiClient,
  playbookId: string | null,
  cursor: string | undefined,
): Promise<{ items: Subscription[]; next: string | null } | string> {
  const query = { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
  try {
    const { data, error, response } = playbookId
      ? await api.GET('/playbooks/{id}/subscriptions', {
          params: { path: { id: playbookId }, query },
        })
      : await api.GET('/subscriptions', { params: { query: { ...query, scope: 'account' } } });
    if (error || !data) return apiErrorText(error, response);
    return { items: data.data, next: data.next_cursor };
  } catch (cause) {
    return apiErrorText(cause);
  }
}

function labelsSummary(list: readonly string[], all: string): string {
  if (list.includes('*')) return all;
  if (list.length === 0) return 'none';
  return list.join(', ');
}

/**
 * Activity Subscriptions: a playbook's (`playbookId`), or the account-wide ones
 * (null: every playbook's activities). docs/dashboard.md, "Activity Subscriptions".
 */
export function SubscriptionsSection({ playbookId }: { playbookId: string | null }) {
  const api = useApi();
  const [subscriptions, setSubscriptions] = useState<Subscription[] | null>(null);
  const [error, setError] = useState<string>();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean }>();
  const heading = playbookId ? 'Activity Subscriptions' : 'Account-wide Activity Subscriptions';
  const headingId = playbookId ? 'subscriptions-heading' : 'account-subscriptions-heading';
  const addButton = useRef<HTMLButtonElement>(null);

  const [next, setNext] = useState<string | null>(null);
  const [shown, setShown] = useState(1);

  // The pages shown so far, read again from the first (after a change, or one more page).
  const reload = useCallback(async () => {
    const items: Subscription[] = [];
    let cursor: string | undefined;
    let more: string | null = null;
    for (let page = 0; page < shown; page++) {
      const result = await subscriptionsPage(api, playbookId, cursor);
      if (typeof result === 'string') {
        setError(result);
        return;
      }
      items.push(...result.items);
      more = result.next;
      if (!more) break;
      cursor = more;
    }
    setError(undefined);
    setSubscriptions(items);
    setNext(more);
  }, [api, playbookId, shown]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <section class="subscriptions" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <p class="help">
        {playbookId
          ? 'Each URL below receives this playbook’s activities you select, as signed webhooks.'
          : 'Each URL below receives the activities you select of every playbook, as signed webhooks.'}
      </p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {secret && (
        <SecretPanel
          {...secret}
          onDone={() => {
            setSecret(undefined);
            addButton.current?.focus();
          }}
        />
      )}
      {subscriptions === null && !error && <p aria-busy="true">Loading subscriptions…</p>}
      {subscriptions?.length === 0 && !adding && (
        <p class="empty">
          No webhook URL yet. Choose <strong>Add webhook URL</strong> to have{' '}
          {playbookId ? 'this playbook’s' : 'every playbook’s'} activities sent to your system.
        </p>
      )}
      {subscriptions && subscriptions.length > 0 && (
        <ul class="subscription-list">
          {subscriptions.map((subscription) => (
            <SubscriptionItem
              key={subscription.id}
              subscription={subscription}
              onChanged={reload}
              onSecret={(value) =>
                setSecret({ url: subscription.url, secret: value, rotated: true })
              }
            />
          ))}
        </ul>
      )}
      {next && (
        <button type="button" class="secondary" onClick={() => setShown((n) => n + 1)}>
          Show more subscriptions
        </button>
      )}
      {adding ? (
        <AddSubscriptionForm
          playbookId={playbookId}
          onCancel={() => {
            setAdding(false);
            requestAnimationFrame(() => addButton.current?.focus());
          }}
          onCreated={(created) => {
            setAdding(false);
            setSecret({ url: created.url, secret: created.secret, rotated: false });
            void reload();
          }}
        />
      ) : (
        <button type="button" ref={addButton} onClick={() => setAdding(true)}>
          Add webhook URL
        </button>
      )}
    </section>
  );
}

/** The signing secret, shown once (after create or rotate), with Copy. */
function SecretPanel({
  url,
  secret,
  rotated,
  onDone,
}: {
  url: string;
  secret: string;
  rotated: boolean;
  onDone: () => void;
}) {
  const box = useRef<HTMLElement>(null);
  const value = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, [secret]);
  const select = () => {
    const range = document.createRange();
    if (value.current) range.selectNodeContents(value.current);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  };
  return (
    <section class="secret" tabIndex={-1} ref={box} aria-labelledby="secret-heading">
      <h3 id="secret-heading">
        {rotated ? 'New signing secret' : 'Signing secret'} for {url}
      </h3>
      <p>
        <code data-testid="signing-secret" ref={value}>
          {secret}
        </code>
      </p>
      <p class="help">
        This is the only time it is shown: store it where your system verifies the webhooks’
        signatures.
        {rotated && ' The previous secret keeps signing too for 24 hours.'}
      </p>
      <div class="actions">
        <CopyButton text={secret} what="the signing secret" select={select} primary />
        <button type="button" class="secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}

function SubscriptionItem({
  subscription,
  onChanged,
  onSecret,
}: {
  subscription: Subscription;
  onChanged: () => Promise<void>;
  onSecret: (secret: string) => void;
}) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [test, setTest] = useState<TestResult | 'sending'>();
  const path = { params: { path: { id: subscription.id } } };

  const act = async (run: () => Promise<{ error?: unknown; response: Response }>) => {
    setBusy(true);
    setError(undefined);
    try {
      const { error: failed, response } = await run();
      if (failed) setError(apiErrorText(failed, response));
      else await onChanged();
    } catch (cause) {
      setError(apiErrorText(cause));
    } finally {
      setBusy(false);
    }
  };

  const sendTest = async () => {
    setTest('sending');
    setError(undefined);
    try {
      const { data, error: failed, response } = await api.POST('/subscriptions/{id}/test', path);
      if (failed || !data) {
        setTest(undefined);
        setError(apiErrorText(failed, response));
      } else setTest(data);
    } catch (cause) {
      setTest(undefined);
      setError(apiErrorText(cause));
    }
  };

  const rotate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const {
        data,
        error: failed,
        response,
      } = await api.POST('/subscriptions/{id}/rotate_secret', path);
      if (failed || !data) setError(apiErrorText(failed, response));
      else {
        onSecret(data.secret);
        await onChanged();
      }
    } catch (cause) {
      setError(apiErrorText(cause));
    } finally {
      setBusy(false);
    }
  };

  const itemId = `subscription-${subscription.id}`;
  return (
    <li class="subscription" aria-labelledby={itemId}>
      <h3 id={itemId} class="url">
        {subscription.url}
      </h3>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          {subscription.enabled
            ? subscription.failing_since
              ? `Enabled, failing since ${formatDateTime(subscription.failing_since)}`
              : 'Enabled'
            : `Disabled${subscription.disabled_reason ? ` (${subscription.disabled_reason})` : ''}`}
        </dd>
        <dt>Events</dt>
        <dd>{labelsSummary(subscription.events, 'All events')}</dd>
        <dt>Outcomes</dt>
        <dd>{labelsSummary(subscription.outcomes, 'All outcomes')}</dd>
        {subscription.created_via === 'hooks' && (
          <>
            <dt>Made by</dt>
            <dd>an automation platform (REST hook)</dd>
          </>
        )}
      </dl>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <div class="actions">
        <button type="button" disabled={test === 'sending'} onClick={() => void sendTest()}>
          Send test
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() =>
            void act(() =>
              api.PATCH('/subscriptions/{id}', {
                ...path,
                body: { enabled: !subscription.enabled },
              }),
            )
          }
        >
          {subscription.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => void rotate()}>
          Rotate secret
        </button>
        <Link href={`/subscriptions/${subscription.id}/deliveries`} class="button secondary">
          Delivery log
        </Link>
        <ConfirmButton
          label="Delete"
          question={`Delete the subscription of ${subscription.url}?`}
          confirmLabel="Yes, delete it"
          onConfirm={() => act(() => api.DELETE('/subscriptions/{id}', path))}
        />
      </div>
      <div role="status" class="test-result">
        {test === 'sending' && <p>Sending a test webhook…</p>}
        {test && test !== 'sending' && <TestOutcome result={test} />}
      </div>
    </li>
  );
}

function TestOutcome({ result }: { result: TestResult }) {
  return (
    <div class={result.ok ? 'ok' : 'error'}>
      <p>
        {result.ok ? 'Test delivered: ' : 'Test failed: '}
        {result.status_code === null
          ? `no answer after ${result.latency_ms} ms`
          : `status ${result.status_code} in ${result.latency_ms} ms`}
        {result.error ? ` (${result.error})` : ''}.
      </p>
      {result.response_body && (
        <>
          <p class="help">The subscriber answered:</p>
          <pre class="excerpt">{result.response_body}</pre>
        </>
      )}
    </div>
  );
}

function LabelBoxes({
  legend,
  allLabel,
  name,
  entries,
  selected,
  all,
  onAll,
  onToggle,
  error,
}: {
  legend: string;
  allLabel: string;
  name: string;
  entries: CatalogEntry[];
  selected: ReadonlySet<string>;
  all: boolean;
  onAll: (on: boolean) => void;
  onToggle: (label: string, on: boolean) => void;
  error: string | undefined;
}) {
  const errorFor = `${name}-labels`;
  return (
    <fieldset
      class="labels"
      aria-invalid={error ? 'true' : undefined}
      aria-describedby={error ? `${errorFor}-error` : undefined}
    >
      <legend>{legend}</legend>
      <div class="check all">
        <input
          type="checkbox"
          id={`${name}-all`}
          checked={all}
          onChange={(event) => onAll(event.currentTarget.checked)}
        />
        <label for={`${name}-all`}>{allLabel}</label>
      </div>
      <div class="label-grid">
        {entries.map((entry) => {
          const id = `${name}-${entry.label}`;
          return (
            <div class="check" key={entry.label}>
              <input
                type="checkbox"
                id={id}
                disabled={all}
                checked={all || selected.has(entry.label)}
                aria-describedby={`${id}-meaning`}
                onChange={(event) => onToggle(entry.label, event.currentTarget.checked)}
              />
              <label for={id}>{entry.label}</label>
              <span class="help meaning" id={`${id}-meaning`}>
                {entry.meaning}
              </span>
            </div>
          );
        })}
      </div>
      <FieldError id={errorFor}>{error}</FieldError>
    </fieldset>
  );
}

/** Add webhook URL: the URL and the labels it receives; Save creates it. */
function AddSubscriptionForm({
  playbookId,
  onCancel,
  onCreated,
}: {
  playbookId: string | null;
  onCancel: () => void;
  onCreated: (created: Schema<'SubscriptionWithSecret'>) => void;
}) {
  const api = useApi();
  const [labels, setLabels] = useState<Labels | string>();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [outcomes, setOutcomes] = useState<Set<string>>(new Set());
  const [allEvents, setAllEvents] = useState(false);
  const [allOutcomes, setAllOutcomes] = useState(false);
  const [errors, setErrors] = useState<FormErrors>();
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const prefix = playbookId ? 'new-sub' : 'new-account-sub';

  useEffect(() => {
    first.current?.focus();
    void loadLabels(api).then(setLabels);
  }, [api]);

  const toggle =
    (set: (update: (old: Set<string>) => Set<string>) => void) => (label: string, on: boolean) =>
      set((old) => {
        const next = new Set(old);
        if (on) next.add(label);
        else next.delete(label);
        return next;
      });

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setErrors(undefined);
    const body = {
      url,
      events: allEvents ? ['*'] : [...events],
      outcomes: allOutcomes ? ['*'] : [...outcomes],
      enabled: true,
    };
    const fieldLabels: Record<string, string> = {
      url: 'Webhook URL',
      events: 'Events',
      outcomes: 'Outcomes',
    };
    const labelOf = (field: string) => fieldLabels[field.split('[')[0]!];
    try {
      const result = playbookId
        ? await api.POST('/playbooks/{id}/subscriptions', {
            params: { path: { id: playbookId } },
            body,
          })
        : await api.POST('/subscriptions', { body });
      if (result.error || !result.data) {
        const found = formErrorsOf(result.error, result.response, labelOf);
        // events[2] and the like are shown with their list.
        const fields: Record<string, string> = {};
        for (const [field, message] of Object.entries(found.fields)) {
          const key = field.split('[')[0]!;
          fields[key] = fields[key] ? `${fields[key]} ${message}` : message;
        }
        setErrors({ ...found, fields });
        return;
      }
      onCreated(result.data);
    } catch (cause) {
      setErrors({ fields: {}, summary: apiErrorText(cause) });
    } finally {
      setSaving(false);
    }
  };

  const urlId = `${prefix}-url`;
  return (
    <form class="add-subscription" onSubmit={(event) => void save(event)} noValidate>
      <h3>Add webhook URL</h3>
      {errors && <ErrorMessage>{errors.summary}</ErrorMessage>}
      <div class="field">
        <label for={urlId}>Webhook URL</label>
        <input
          {...invalidProps(urlId, errors?.fields.url)}
          ref={first}
          type="url"
          inputMode="url"
          placeholder="https://crm.example.com/hooks/leadhook"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <FieldError id={urlId}>{errors?.fields.url}</FieldError>
      </div>
      {typeof labels === 'string' && <ErrorMessage>{labels}</ErrorMessage>}
      {labels === undefined && <p aria-busy="true">Loading the activity catalog…</p>}
      {typeof labels === 'object' && (
        <>
          <LabelBoxes
            legend="Events"
            allLabel="All events"
            name={`${prefix}-events`}
            entries={labels.events}
            selected={events}
            all={allEvents}
            onAll={setAllEvents}
            onToggle={toggle(setEvents)}
            error={errors?.fields.events}
          />
          <LabelBoxes
            legend="Outcomes"
            allLabel="All outcomes"
            name={`${prefix}-outcomes`}
            entries={labels.outcomes}
            selected={outcomes}
            all={allOutcomes}
            onAll={setAllOutcomes}
            onToggle={toggle(setOutcomes)}
            error={errors?.fields.outcomes}
          />
        </>
      )}
      <div class="actions">
        <button type="submit" disabled={saving}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
