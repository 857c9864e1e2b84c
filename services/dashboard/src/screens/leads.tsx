import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, useSearchParams } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import '../ui/screens.css';
import { everyPage } from '../api/pages';
import { useApi } from '../session';
import { fieldProblems } from '../ui/form-errors';
import { formatDateTime, labelInWords } from '../ui/format';

type Lead = Schema<'LeadList'>['data'][number];
type Source = Schema<'MarketingSourceList'>['data'][number];
type SearchBy = 'phone' | 'email' | 'external_id';

/** The list's filters, as the URL query holds them (docs/dashboard.md, "Leads"). */
const FILTERS = ['source_id', 'outcome', 'from', 'to', 'phone', 'email', 'external_id'] as const;
type Filter = (typeof FILTERS)[number];
const SEARCH_BY: readonly { value: SearchBy; label: string }[] = [
  { value: 'phone', label: 'Phone' },
  { value: 'email', label: 'Email' },
  { value: 'external_id', label: 'External id' },
];
const DEFAULT_PAGE_SIZE = 50;
/** Sources listed in the filter: pages of 100, at most this many pages. */
const SOURCE_PAGES = 10;

/** `limit` from the URL (1–100), else the default page size. */
function pageSize(params: URLSearchParams): number {
  const limit = Number(params.get('limit'));
  return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : DEFAULT_PAGE_SIZE;
}

function leadName(lead: Lead): string {
  const name = [lead.fields.first_name, lead.fields.last_name].filter(Boolean).join(' ');
  return name || lead.id;
}

/** The account's sources (a few pages of 100) and the catalog's outcomes, for the filters. */
function useFilterChoices() {
  const api = useApi();
  const [sources, setSources] = useState<Source[]>([]);
  const [outcomes, setOutcomes] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void (async () => {
      const found = await everyPage<Source>(async (cursor) => {
        const { data, error } = await api.GET('/marketing_sources', {
          params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } },
        });
        if (!data) throw error;
        return data;
      }, SOURCE_PAGES);
      if (live) setSources(found);
    })().catch(() => undefined);
    void api
      .GET('/activity_catalog')
      .then(({ data }) => {
        if (!live || !data) return;
        setOutcomes(data.data.filter((entry) => entry.type === 'outcome').map((e) => e.label));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  return { sources, outcomes };
}

function FilterForm({
  params,
  sources,
  outcomes,
  problems,
  onApply,
}: {
  params: URLSearchParams;
  sources: Source[];
  outcomes: string[];
  problems: Record<string, string>;
  onApply(next: URLSearchParams): void;
}) {
  const initialBy = SEARCH_BY.find((by) => params.get(by.value))?.value ?? 'phone';
  const [sourceId, setSourceId] = useState(params.get('source_id') ?? '');
  const [outcome, setOutcome] = useState(params.get('outcome') ?? '');
  const [from, setFrom] = useState(params.get('from') ?? '');
  const [to, setTo] = useState(params.get('to') ?? '');
  const [searchBy, setSearchBy] = useState<SearchBy>(initialBy);
  const [search, setSearch] = useState(params.get(initialBy) ?? '');
  // The URL changed (applied, cleared, Back): the fields show it again. The form is
  // kept, not remounted, so keyboard focus stays where it was.
  const query = params.toString();
  useEffect(() => {
    const by = SEARCH_BY.find((choice) => params.get(choice.value))?.value ?? 'phone';
    setSourceId(params.get('source_id') ?? '');
    setOutcome(params.get('outcome') ?? '');
    setFrom(params.get('from') ?? '');
    setTo(params.get('to') ?? '');
    setSearchBy(by);
    setSearch(params.get(by) ?? '');
  }, [query]);

  function submit(event: Event) {
    event.preventDefault();
    const next = new URLSearchParams();
    const values: Partial<Record<Filter, string>> = {
      source_id: sourceId,
      outcome,
      from,
      to,
      [searchBy]: search.trim(),
    };
    for (const name of FILTERS) if (values[name]) next.set(name, values[name]!);
    const limit = params.get('limit');
    if (limit) next.set('limit', limit);
    onApply(next);
  }

  const searchProblem = problems[searchBy];
  const knownSource = sources.some((source) => source.id === sourceId);
  return (
    <form class="filters" onSubmit={submit} aria-label="Filter leads">
      <div class="field">
        <label for="filter-source">Source</label>
        <select
          id="filter-source"
          value={sourceId}
          onChange={(e) => setSourceId(e.currentTarget.value)}
        >
          <option value="">All sources</option>
          {sources.map((source) => (
            <option key={source.id} value={source.id}>
              {source.name}
            </option>
          ))}
          {sourceId && !knownSource ? <option value={sourceId}>{sourceId}</option> : null}
        </select>
      </div>
      <div class="field">
        <label for="filter-outcome">Outcome</label>
        <select
          id="filter-outcome"
          value={outcome}
          onChange={(e) => setOutcome(e.currentTarget.value)}
        >
          <option value="">Any outcome</option>
          {outcomes.map((label) => (
            <option key={label} value={label}>
              {labelInWords(label)}
            </option>
          ))}
        </select>
        {problems.outcome ? <ErrorMessage>{problems.outcome}</ErrorMessage> : null}
      </div>
      <div class="field">
        <label for="filter-from">Received from</label>
        <input
          id="filter-from"
          type="date"
          value={from}
          onInput={(e) => setFrom(e.currentTarget.value)}
          aria-invalid={problems.from ? true : undefined}
          aria-describedby={problems.from ? 'filter-from-error' : undefined}
        />
        {problems.from ? (
          <div id="filter-from-error">
            <ErrorMessage>{problems.from}</ErrorMessage>
          </div>
        ) : null}
      </div>
      <div class="field">
        <label for="filter-to">Received to</label>
        <input
          id="filter-to"
          type="date"
          value={to}
          onInput={(e) => setTo(e.currentTarget.value)}
          aria-invalid={problems.to ? true : undefined}
          aria-describedby={problems.to ? 'filter-to-error' : undefined}
        />
        {problems.to ? (
          <div id="filter-to-error">
            <ErrorMessage>{problems.to}</ErrorMessage>
          </div>
        ) : null}
      </div>
      <div class="field">
        <label for="filter-search-by">Search by</label>
        <select
          id="filter-search-by"
          value={searchBy}
          onChange={(e) => setSearchBy(e.currentTarget.value as SearchBy)}
        >
          {SEARCH_BY.map((by) => (
            <option key={by.value} value={by.value}>
              {by.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field field-wide">
        <label for="filter-search">Search</label>
        <input
          id="filter-search"
          type="search"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
          aria-invalid={searchProblem ? true : undefined}
          aria-describedby={
            searchProblem ? 'filter-search-error filter-search-help' : 'filter-search-help'
          }
        />
        <p id="filter-search-help" class="help">
          A phone in any notation (<code>(512) 555-0100</code>), an email in any case, or the
          seller's external id exactly.
        </p>
        {searchProblem ? (
          <div id="filter-search-error">
            <ErrorMessage>{searchProblem}</ErrorMessage>
          </div>
        ) : null}
      </div>
      <div class="actions">
        <button type="submit">Apply filters</button>
        {FILTERS.some((name) => params.get(name)) ? (
          <button
            type="button"
            class="button-secondary"
            onClick={() => {
              const next = new URLSearchParams();
              const limit = params.get('limit');
              if (limit) next.set('limit', limit);
              onApply(next);
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}

function LeadsTable({ leads }: { leads: Lead[] }) {
  return (
    <table class="data-table">
      <caption class="visually-hidden">Leads, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Lead</th>
          <th scope="col">Phone</th>
          <th scope="col">Email</th>
          <th scope="col">Source</th>
          <th scope="col">Outcome</th>
          <th scope="col">Received</th>
        </tr>
      </thead>
      <tbody>
        {leads.map((lead) => (
          <tr key={lead.id}>
            <td>
              <Link href={`/leads/${lead.id}`}>{leadName(lead)}</Link>
            </td>
            <td>{lead.fields.phone ?? '—'}</td>
            <td>{lead.fields.email ?? '—'}</td>
            <td>{lead.marketing_source.name}</td>
            <td>
              {lead.outcome ? labelInWords(lead.outcome) : lead.opted_out ? 'Opted out' : '—'}
            </td>
            <td>{formatDateTime(lead.consent.received_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type ListState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string; problems: Record<string, string> }
  | {
      kind: 'loaded';
      leads: Lead[];
      next: string | null;
      loadingMore: boolean;
      moreError?: string;
    };

/**
 * Leads: the account's leads, newest first, filtered by source, outcome, period and
 * a phone, email or external id; the filters live in the URL query, pages load one
 * at a time with "Load more" (docs/dashboard.md, "Leads").
 */
export function LeadsScreen() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  const { sources, outcomes } = useFilterChoices();
  const [state, setState] = useState<ListState>({ kind: 'loading' });
  const request = useRef(0);

  const filters = (): Record<string, string> => {
    const values: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = params.get(name);
      if (value) values[name] = value;
    }
    return values;
  };

  async function load(cursor?: string) {
    const mine = ++request.current;
    try {
      const { data, error, response } = await api.GET('/leads', {
        // The filters are checked by the API; an unknown outcome is its 422 in words.
        params: {
          query: { ...filters(), limit: pageSize(params), ...(cursor ? { cursor } : {}) } as {
            limit: number;
          },
        },
      });
      if (mine !== request.current) return;
      if (data) {
        setState((previous) => ({
          kind: 'loaded',
          leads:
            cursor && previous.kind === 'loaded' ? [...previous.leads, ...data.data] : data.data,
          next: data.next_cursor,
          loadingMore: false,
        }));
        return;
      }
      const message =
        response.status === 404 && params.get('source_id')
          ? 'This source is not one of your account’s. Choose another source.'
          : apiErrorText(error, response);
      if (cursor)
        setState((previous) =>
          previous.kind === 'loaded'
            ? { ...previous, loadingMore: false, moreError: message }
            : previous,
        );
      else setState({ kind: 'failed', message, problems: fieldProblems(error) });
    } catch (cause) {
      if (mine !== request.current) return;
      const message = apiErrorText(cause);
      if (cursor)
        setState((previous) =>
          previous.kind === 'loaded'
            ? { ...previous, loadingMore: false, moreError: message }
            : previous,
        );
      else setState({ kind: 'failed', message, problems: {} });
    }
  }

  useEffect(() => {
    setState({ kind: 'loading' });
    void load();
  }, [api, query]);

  const filtered = FILTERS.some((name) => params.get(name));
  const problems = state.kind === 'failed' ? state.problems : {};
  const fieldShown = Object.keys(problems).some((field) =>
    ['from', 'to', 'outcome', 'phone', 'email', 'external_id'].includes(field),
  );

  return (
    <Screen title="Leads">
      <FilterForm
        params={params}
        sources={sources}
        outcomes={outcomes}
        problems={problems}
        onApply={(next) => setParams(next)}
      />
      {state.kind === 'loading' ? (
        <p aria-live="polite">Loading leads…</p>
      ) : state.kind === 'failed' ? (
        fieldShown ? (
          <p>Correct the filter above to see leads.</p>
        ) : (
          <ErrorMessage>{state.message}</ErrorMessage>
        )
      ) : state.leads.length === 0 ? (
        filtered ? (
          <p class="empty">No leads match these filters. Change or clear the filters above.</p>
        ) : (
          <div class="empty">
            <p>
              <strong>No leads yet.</strong> Leads arrive when a seller posts them to a marketing
              source's post URL.
            </p>
            <p>
              Open <Link href="/integrations/marketing-sources">Marketing Sources</Link>, copy a
              source's post URL (or its Integration Instructions) and share it with your seller; an
              automation can also create leads with{' '}
              <code>POST /marketing_sources/&#123;id&#125;/leads</code>.
            </p>
          </div>
        )
      ) : (
        <>
          <p aria-live="polite" class="help">
            Showing {state.leads.length} lead{state.leads.length === 1 ? '' : 's'}
            {state.next ? ' (more to load)' : ''}.
          </p>
          <LeadsTable leads={state.leads} />
          {state.moreError ? <ErrorMessage>{state.moreError}</ErrorMessage> : null}
          {state.next ? (
            <p>
              <button
                type="button"
                disabled={state.loadingMore}
                onClick={() => {
                  const shown = state.leads.length;
                  setState({ ...state, loadingMore: true, moreError: undefined });
                  // Keyboard focus moves to the first lead of the new page (the
                  // button is gone after the last page).
                  void load(state.next!).then(() => {
                    const link = document.querySelectorAll<HTMLAnchorElement>(
                      '.data-table tbody tr td:first-child a',
                    )[shown];
                    link?.focus();
                  });
                }}
              >
                {state.loadingMore ? 'Loading…' : 'Load more'}
              </button>
            </p>
          ) : null}
        </>
      )}
    </Screen>
  );
}
