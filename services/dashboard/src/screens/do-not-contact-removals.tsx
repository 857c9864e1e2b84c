import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, useSearchParams } from 'wouter-preact';
import type { ApiClient } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage } from '../components';
import { useApi } from '../session';
import { FieldError, fieldProblems, invalidProps } from '../ui/form-errors';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorPages } from '../ui/pager';
import {
  type ApiKey,
  keyInWords,
  PAGE_SIZE,
  REASONS,
  type Removal,
  removalsHref,
  sentence,
} from '../ui/suppressions';

/** Whether a phone was taken off the list before: its last removal, for the lookup. */
export type PastRemoval =
  | { kind: 'never' }
  | { kind: 'removed'; last: Removal; more: boolean }
  | { kind: 'unknown'; message: string };

/** The phone's (any notation) newest removal: GET /suppressions/removals?phone=&limit=1. */
export async function pastRemovalOf(api: ApiClient, phone: string): Promise<PastRemoval> {
  try {
    const { data, error, response } = await api.GET('/suppressions/removals', {
      params: { query: { phone, limit: 1 } },
    });
    if (!data) return { kind: 'unknown', message: apiErrorText(error, response) };
    const [last] = data.data;
    return last ? { kind: 'removed', last, more: data.next_cursor !== null } : { kind: 'never' };
  } catch (cause) {
    return { kind: 'unknown', message: apiErrorText(cause) };
  }
}

/**
 * The lookup's word on a phone's removals: when and by which key it was last
 * taken off the list (for a listed phone: before it was listed again).
 */
export function PastRemovalText({
  past,
  listed,
  keys,
}: {
  past: PastRemoval;
  listed: boolean;
  keys: Map<string, ApiKey>;
}) {
  if (past.kind === 'never') return null;
  if (past.kind === 'unknown') {
    return (
      <p class="help">Whether it was taken off the list before could not be read: {past.message}</p>
    );
  }
  const { last, more } = past;
  const when = (
    <>
      on {formatDateTime(last.removed_at)}, with {keyInWords(last.removed_by_api_key_id, keys)}
    </>
  );
  return (
    <p class="dnc-past">
      {listed ? (
        <>
          It was taken off the list before ({more ? 'last ' : ''}
          {when}) and listed again since.
        </>
      ) : (
        <>
          It was {more ? 'last ' : ''}taken off the list {when}. It had been listed since{' '}
          {formatDateTime(last.listed_at)} ({REASONS[last.reason]}).
        </>
      )}{' '}
      <Link href={removalsHref(last.phone)}>
        See {more ? 'every removal' : 'the removal'}
        <span class="visually-hidden"> of {last.phone}</span>
      </Link>
    </p>
  );
}

function RemovalsTable({
  removals,
  caption,
  keys,
}: {
  removals: Removal[];
  caption: string;
  keys: Map<string, ApiKey>;
}) {
  return (
    <div class="table-scroll">
      <table class="dnc-table dnc-removals">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Phone</th>
            <th scope="col">Removed</th>
            <th scope="col">Removed by</th>
            <th scope="col">Was listed as</th>
            <th scope="col">Listed since</th>
          </tr>
        </thead>
        <tbody>
          {removals.map((removal) => (
            <tr key={removal.id} data-removal={removal.id} data-phone={removal.phone}>
              <th scope="row">
                <code>{removal.phone}</code>
              </th>
              <td class="dnc-added">{formatDateTime(removal.removed_at)}</td>
              <td>{keyInWords(removal.removed_by_api_key_id, keys, { start: true })}</td>
              <td>
                <span class={`status dnc-reason-${removal.reason}`}>{REASONS[removal.reason]}</span>
              </td>
              <td class="dnc-added">{formatDateTime(removal.listed_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type RemovalsState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  /** The address's phone is not a number (the API's 422, said at the field). */
  | { kind: 'invalid'; message: string }
  | { kind: 'loaded'; removals: Removal[]; next: string | null };

/**
 * Removed phones: every removal from the list, newest first, paged with the API's
 * cursor, optionally one phone's only (`?view=removed&phone=`, any notation).
 * `version` changes when the screen removed a phone, to show it; `heading` is
 * where keyboard focus goes after a removal.
 */
export function RemovedView({
  keys,
  version,
  heading,
}: {
  keys: Map<string, ApiKey>;
  version: number;
  heading: RefObject<HTMLHeadingElement>;
}) {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const phone = params.get('phone')?.trim() || undefined;
  const pages = useCursorPages(phone ?? '');
  const [state, setState] = useState<RemovalsState>({ kind: 'loading' });
  const [text, setText] = useState(phone ?? '');
  const field = useRef<HTMLInputElement>(null);
  const loads = useRef(0);
  // A refused phone takes keyboard focus back to the field when it was just submitted.
  const submitted = useRef(false);

  useEffect(() => setText(phone ?? ''), [phone]);

  useEffect(() => {
    const mine = ++loads.current;
    setState({ kind: 'loading' });
    const { cursor } = pages;
    void (async () => {
      let next: RemovalsState;
      try {
        const { data, error, response } = await api.GET('/suppressions/removals', {
          params: {
            query: { limit: PAGE_SIZE, ...(phone ? { phone } : {}), ...(cursor ? { cursor } : {}) },
          },
        });
        const problem = response.status === 422 ? fieldProblems(error).phone : undefined;
        next = data
          ? { kind: 'loaded', removals: data.data, next: data.next_cursor }
          : problem
            ? { kind: 'invalid', message: sentence(problem) }
            : { kind: 'failed', message: apiErrorText(error, response) };
      } catch (cause) {
        next = { kind: 'failed', message: apiErrorText(cause) };
      }
      if (mine !== loads.current) return;
      setState(next);
      if (next.kind === 'invalid' && submitted.current) field.current?.focus();
      submitted.current = false;
    })();
  }, [api, phone, pages.cursor, version]);

  const show = (value: string) =>
    setParams(value ? { view: 'removed', phone: value } : { view: 'removed' });

  function submit(event: Event) {
    event.preventDefault();
    submitted.current = true;
    show(text.trim());
  }

  const problem = state.kind === 'invalid' ? state.message : undefined;
  // The phone as the API wrote it (E.164) once its removals are shown, else as asked.
  const shown = phone && ((state.kind === 'loaded' && state.removals[0]?.phone) || phone);
  const caption = shown
    ? `Removals of ${shown}, newest first`
    : 'Phones taken off the do-not-contact list, newest first';

  return (
    <section aria-labelledby="dnc-removed-title">
      <h2 id="dnc-removed-title" tabIndex={-1} ref={heading}>
        {shown ? `Removals of ${shown}` : 'Removed phones'}
      </h2>
      <p class="help dnc-intro">
        Every time a phone was taken off the list, newest first: when, with which API key, and the
        entry it had. Removals are kept for good, so this answers who took a number off, and when.
      </p>
      <form
        class="dnc-removed-filter"
        onSubmit={submit}
        noValidate
        aria-label="Find a phone's removals"
      >
        <label for="dnc-removed-phone">Phone</label>
        <div class="inline">
          <input
            {...invalidProps('dnc-removed-phone', problem, 'dnc-removed-phone-help')}
            ref={field}
            type="search"
            value={text}
            autocomplete="off"
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <button type="submit">Show its removals</button>
          {phone ? (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                show('');
                field.current?.focus();
              }}
            >
              Show every removal
            </button>
          ) : null}
        </div>
        <p id="dnc-removed-phone-help" class="help">
          In any notation, as for the lookup above.
        </p>
        <FieldError id="dnc-removed-phone">{problem}</FieldError>
      </form>
      {state.kind === 'loading' ? (
        <p aria-busy="true">Loading the removed phones…</p>
      ) : state.kind === 'failed' ? (
        <ErrorMessage>{state.message}</ErrorMessage>
      ) : state.kind === 'invalid' ? (
        <p>Correct the phone above to see its removals.</p>
      ) : state.removals.length === 0 && pages.page === 1 ? (
        phone ? (
          <p class="empty">{phone} has never been taken off the do-not-contact list.</p>
        ) : (
          <div class="empty">
            <h3>No phone has been taken off the list</h3>
            <p>
              When a phone is removed (its row's <strong>Remove</strong>, the lookup's, or{' '}
              <code>DELETE /suppressions/&#123;phone&#125;</code>), the removal is recorded here
              with the API key that made it and when.
            </p>
          </div>
        )
      ) : state.removals.length === 0 ? (
        <p class="empty">No removal is on this page: go to the previous page.</p>
      ) : (
        <RemovalsTable removals={state.removals} caption={caption} keys={keys} />
      )}
      <Pager
        label="Pages of the removed phones"
        page={pages.page}
        next={state.kind === 'loaded' ? state.next : undefined}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </section>
  );
}
