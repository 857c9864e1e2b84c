import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Link, useParams } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import { useApi } from '../session';
import { FieldError, fieldProblems, invalidProps } from '../ui/form-errors';
import { formatDateTime } from '../ui/format';
import '../ui/ui.css';

type Delivery = Schema<'Delivery'>;
type Subscription = Schema<'Subscription'>;
type Status = Delivery['status'];

const STATUSES: readonly { value: Status; words: string }[] = [
  { value: 'pending', words: 'Pending (being tried)' },
  { value: 'queued', words: 'Queued (behind an earlier delivery of the lead)' },
  { value: 'succeeded', words: 'Succeeded' },
  { value: 'failed', words: 'Failed' },
];

const PAGE_SIZE = 20;

/** A datetime-local value (the reader's zone) as the API's UTC instant. */
function instantOf(local: string): string | undefined {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The delivery log of one subscription: `/subscriptions/<id>/deliveries`. */
export function DeliveryLogScreen() {
  const { id } = useParams<{ id: string }>();
  const api = useApi();
  const [subscription, setSubscription] = useState<Subscription>();
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<Status | ''>('');
  // The period: UTC days (YYYY-MM-DD), both included, either left open.
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    void api
      .GET('/subscriptions/{id}', { params: { path: { id } } })
      .then(({ data, error: failed, response }) => {
        if (data) setSubscription(data);
        else setError(apiErrorText(failed, response));
      })
      .catch((cause: unknown) => setError(apiErrorText(cause)));
  }, [api, id]);

  // Only the answer to the latest request is shown (a filter changed meanwhile).
  const latest = useRef(0);
  const load = useCallback(
    async (after?: string) => {
      const request = ++latest.current;
      setLoading(true);
      try {
        const query = {
          limit: PAGE_SIZE,
          ...(status ? { status } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          ...(after ? { cursor: after } : {}),
        };
        const {
          data,
          error: failed,
          response,
        } = await api.GET('/subscriptions/{id}/deliveries', {
          params: { path: { id }, query },
        });
        if (request !== latest.current) return;
        if (failed || !data) {
          const byField = fieldProblems(failed);
          if (byField.from || byField.to) {
            // Said next to the date it is about; the list shown is no longer this period's.
            setProblems(byField);
            setError(undefined);
            setDeliveries(null);
            setCursor(null);
          } else setError(apiErrorText(failed, response));
        } else {
          setError(undefined);
          setProblems({});
          setDeliveries((shown) => (after && shown ? [...shown, ...data.data] : data.data));
          setCursor(data.next_cursor);
        }
      } catch (cause) {
        if (request === latest.current) setError(apiErrorText(cause));
      } finally {
        if (request === latest.current) setLoading(false);
      }
    },
    [api, id, status, from, to],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const back = subscription?.playbook_id ? `/playbooks/${subscription.playbook_id}` : '/playbooks';
  return (
    <Screen title="Delivery log">
      <p>
        <Link href={back}>
          {subscription?.playbook_id ? 'Back to the playbook' : 'Back to Playbooks'}
        </Link>
      </p>
      {subscription && (
        <p>
          Webhooks sent to <code class="url">{subscription.url}</code>
          {subscription.enabled ? '' : ' (disabled: nothing is sent until it is enabled again)'},
          newest first.
        </p>
      )}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <div class="toolbar">
        <div class="field">
          <label for="delivery-status">Status</label>
          <select
            id="delivery-status"
            value={status}
            onChange={(event) => setStatus(event.currentTarget.value as Status | '')}
          >
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.words}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="delivery-from">Created from</label>
          <input
            {...invalidProps('delivery-from', problems.from, 'delivery-period-help')}
            type="date"
            value={from}
            onChange={(event) => setFrom(event.currentTarget.value)}
          />
          <FieldError id="delivery-from">{problems.from}</FieldError>
        </div>
        <div class="field">
          <label for="delivery-to">Created to</label>
          <input
            {...invalidProps('delivery-to', problems.to, 'delivery-period-help')}
            type="date"
            value={to}
            onChange={(event) => setTo(event.currentTarget.value)}
          />
          <FieldError id="delivery-to">{problems.to}</FieldError>
        </div>
        <button type="button" class="secondary" disabled={loading} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <p id="delivery-period-help" class="help">
        The period is in UTC days, both included; leave a date empty for no limit on that side.
      </p>
      <RecoverForm subscriptionId={id} onRecovered={() => void load()} />
      <p role="status">{notice}</p>
      {deliveries === null && !error && !problems.from && !problems.to && (
        <p aria-busy="true">Loading deliveries…</p>
      )}
      {deliveries?.length === 0 && (
        <p class="empty">
          {from || to
            ? `No delivery${status ? ' in this status' : ''} created in this period. Clear Created from and Created to to see every delivery.`
            : status
              ? 'No delivery in this status. Choose All statuses to see the others.'
              : 'No delivery yet. One appears here for each activity the subscription selects; Send test on the playbook’s page checks the URL without waiting for one.'}
        </p>
      )}
      {deliveries && deliveries.length > 0 && (
        <ol class="deliveries">
          {deliveries.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              onRedelivered={(now) => {
                setDeliveries((shown) => shown?.map((d) => (d.id === now.id ? now : d)) ?? shown);
                setNotice(
                  `The ${now.activity_label} delivery is being sent again with the same webhook-id.`,
                );
              }}
            />
          ))}
        </ol>
      )}
      {cursor && (
        <button
          type="button"
          class="secondary"
          disabled={loading}
          onClick={() => void load(cursor)}
        >
          Show more deliveries
        </button>
      )}
    </Screen>
  );
}

function DeliveryItem({
  delivery,
  onRedelivered,
}: {
  delivery: Delivery;
  onRedelivered: (now: Delivery) => void;
}) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const headingId = `delivery-${delivery.id}`;

  const redeliver = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const {
        data,
        error: failed,
        response,
      } = await api.POST('/deliveries/{id}/redeliver', {
        params: { path: { id: delivery.id } },
      });
      if (failed || !data) setError(apiErrorText(failed, response));
      else onRedelivered(data);
    } catch (cause) {
      setError(apiErrorText(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="delivery" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {delivery.activity_label} <span class="help">({delivery.activity_type})</span>
      </h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="delivery-status">{delivery.status}</dd>
        <dt>Lead</dt>
        <dd>
          <code>{delivery.lead_id}</code>
        </dd>
        <dt>Webhook id</dt>
        <dd>
          <code>{delivery.activity_id}</code>
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(delivery.created_at)}</dd>
        {delivery.next_attempt_at && (
          <>
            <dt>Next try</dt>
            <dd>{formatDateTime(delivery.next_attempt_at)}</dd>
          </>
        )}
        {delivery.waiting_for && (
          <>
            <dt>Waiting for</dt>
            <dd>
              <code>{delivery.waiting_for}</code>
            </dd>
          </>
        )}
      </dl>
      {delivery.attempts.length === 0 ? (
        <p class="help">No attempt yet.</p>
      ) : (
        <table class="attempts">
          <caption>
            {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'} of this
            delivery, oldest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Status code</th>
              <th scope="col">Latency</th>
              <th scope="col">Error</th>
              <th scope="col">Answer</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((attempt) => (
              <tr key={attempt.id}>
                <td>{formatDateTime(attempt.attempted_at)}</td>
                <td>{attempt.status_code ?? 'no answer'}</td>
                <td>{attempt.duration_ms} ms</td>
                <td>{attempt.error ?? ''}</td>
                <td>
                  {attempt.response_body ? <pre class="excerpt">{attempt.response_body}</pre> : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <button type="button" class="secondary" disabled={busy} onClick={() => void redeliver()}>
        Redeliver
      </button>
    </li>
  );
}

/** "Recover failed since…": every failed delivery from an instant on is sent again. */
function RecoverForm({
  subscriptionId,
  onRecovered,
}: {
  subscriptionId: string;
  onRecovered: () => void;
}) {
  const api = useApi();
  const [since, setSince] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);

  const recover = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    const instant = instantOf(since);
    if (!instant) {
      setError('Choose the date and time from which failed deliveries are sent again.');
      return;
    }
    setBusy(true);
    try {
      const {
        data,
        error: failed,
        response,
      } = await api.POST('/subscriptions/{id}/recover', {
        params: { path: { id: subscriptionId } },
        body: { since: instant },
      });
      if (failed || !data) setError(apiErrorText(failed, response));
      else {
        setDone(
          data.recovered === 0
            ? 'No failed delivery since then: nothing to send again.'
            : `${data.recovered} failed deliver${data.recovered === 1 ? 'y is' : 'ies are'} being sent again.`,
        );
        onRecovered();
      }
    } catch (cause) {
      setError(apiErrorText(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="recover" onSubmit={(event) => void recover(event)} noValidate>
      <div class="field">
        <label for="recover-since">Recover failed since…</label>
        <input
          {...invalidProps('recover-since', error)}
          type="datetime-local"
          value={since}
          onInput={(event) => setSince(event.currentTarget.value)}
        />
        <FieldError id="recover-since">{error}</FieldError>
      </div>
      <button type="submit" disabled={busy}>
        Recover failed deliveries
      </button>
      <p role="status">{done}</p>
    </form>
  );
}
