import '../ui/sources.css';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { everyPage } from '../api/pages';
import { ErrorMessage, Screen } from '../components';
import { useApi } from '../session';
import { ConfirmDialog } from '../ui/dialog';
import { LinkIcon } from '../ui/icons';
import { IntegrationInstructionsDialog } from '../ui/integration-instructions';
import { NewSourceDialog } from '../ui/new-source';
import { Pager } from '../ui/pager';
import { DEFAULT_PERIOD, type Period, PeriodChooser, periodRange } from '../ui/period';
import {
  formatCount,
  outcomesTotal,
  SOURCE_TYPE_LABELS,
  STATUS_LABELS,
  sourcePath,
} from '../ui/sources';

type SourceRow = Schema<'SourceStatsList'>['data'][number];
type Playbook = Schema<'PlaybookList'>['data'][number];
type Action = 'pause' | 'resume' | 'rotate' | 'delete';
type Dialog =
  | { kind: 'new' }
  | { kind: 'instructions'; source: SourceRow }
  | { kind: 'confirm'; action: Action; source: SourceRow };

/** Sources per page of the table: one GET /stats/sources each. */
export const SOURCES_PAGE_SIZE = 100;

const CONFIRM: Record<
  Action,
  { title: (name: string) => string; button: string; text: string; done: string }
> = {
  pause: {
    title: (name) => `Pause ${name}?`,
    button: 'Pause',
    text: 'While paused, its post URL answers 404 and no lead is accepted from this seller.',
    done: 'is paused',
  },
  resume: {
    title: (name) => `Resume ${name}?`,
    button: 'Resume',
    text: 'Its post URL accepts leads again.',
    done: 'accepts leads again',
  },
  rotate: {
    title: (name) => `Rotate the post URL of ${name}?`,
    button: 'Rotate URL',
    text: 'The source gets a new post URL and the old one stops working at once: give the seller the new Integration Instructions.',
    done: 'has a new post URL',
  },
  delete: {
    title: (name) => `Delete ${name}?`,
    button: 'Delete',
    text: 'Its post URL stops working at once and it leaves this list. Its leads are kept.',
    done: 'is deleted',
  },
};

/**
 * Integrations > Marketing Sources: every source with its figures for the chosen
 * period (one GET /stats/sources per page), a form for a new one, and each row's
 * actions (docs/dashboard.md, "Marketing Sources").
 */
export function MarketingSourcesScreen() {
  const api = useApi();
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  // The cursors of the pages before this one, and this page's (undefined: the first).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const [rows, setRows] = useState<SourceRow[]>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [playbooks, setPlaybooks] = useState<Playbook[]>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [dialog, setDialog] = useState<Dialog>();
  const loads = useRef(0);

  const load = useCallback(async () => {
    const load = ++loads.current;
    try {
      const {
        data,
        error: failure,
        response,
      } = await api.GET('/stats/sources', {
        params: { query: { ...periodRange(period), limit: SOURCES_PAGE_SIZE, cursor } },
      });
      if (load !== loads.current) return;
      if (!data) {
        setError(apiErrorText(failure, response));
        return;
      }
      setError(undefined);
      setRows(data.data);
      setNextCursor(data.next_cursor);
    } catch (cause) {
      if (load === loads.current) setError(apiErrorText(cause));
    }
  }, [api, period, cursor]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    let current = true;
    everyPage(async (cursor) => {
      const {
        data,
        error: failure,
        response,
      } = await api.GET('/playbooks', {
        params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } },
      });
      if (!data) throw new Error(apiErrorText(failure, response));
      return data;
    })
      .then((all) => current && setPlaybooks(all))
      .catch(
        (cause: unknown) =>
          current && setError(cause instanceof Error ? cause.message : apiErrorText(cause)),
      );
    return () => {
      current = false;
    };
  }, [api]);

  const playbookName = (id: string) => playbooks?.find((playbook) => playbook.id === id)?.name;

  const act = async (action: Action, source: SourceRow): Promise<string | undefined> => {
    const path = { params: { path: { id: source.id } } };
    try {
      const { error: failure, response } =
        action === 'delete'
          ? await api.DELETE('/marketing_sources/{id}', path)
          : action === 'rotate'
            ? await api.POST('/marketing_sources/{id}/rotate_url', path)
            : await api.PATCH('/marketing_sources/{id}', {
                ...path,
                body: { status: action === 'pause' ? 'paused' : 'active' },
              });
      if (!response.ok) return apiErrorText(failure, response);
    } catch (cause) {
      return apiErrorText(cause);
    }
    setNotice(`${source.name} ${CONFIRM[action].done}.`);
    await load();
    return undefined;
  };

  const closeDialog = () => setDialog(undefined);

  return (
    <Screen title="Marketing Sources">
      <p class="help">
        A marketing source is one seller, form or campaign, with its own secret post URL. Its leads
        go through its playbook.
      </p>
      <div class="toolbar">
        <PeriodChooser
          id="sources-period"
          value={period}
          onChange={(days) => {
            setPeriod(days);
            setCursors([undefined]);
          }}
        />
        <button type="button" onClick={() => setDialog({ kind: 'new' })}>
          New marketing source
        </button>
      </div>
      <p role="status" class="notice">
        {notice ?? ''}
      </p>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      {rows === undefined && !error ? <p aria-busy="true">Loading the marketing sources…</p> : null}
      {rows?.length === 0 && cursors.length === 1 ? (
        <div class="empty">
          <h2>No marketing sources yet</h2>
          <p>
            Add one with <strong>New marketing source</strong>: give it a name, its type and the
            playbook its leads go through, then hand its Integration Instructions to the seller.
          </p>
        </div>
      ) : null}
      {rows && rows.length > 0 ? (
        <div class="table-scroll">
          <table class="sources">
            <caption id="sources-caption">Marketing sources, last {period} days</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Source type</th>
                <th scope="col">Playbook</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Accepted
                </th>
                <th scope="col" class="number">
                  Duplicate
                </th>
                <th scope="col" class="number">
                  Rejected
                </th>
                <th scope="col" class="number">
                  Outcomes
                </th>
                <th scope="col" class="number">
                  Qualified
                </th>
                <th scope="col" class="number">
                  Do not contact
                </th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((source) => (
                <tr key={source.id} data-source-id={source.id}>
                  <th scope="row">
                    <Link href={sourcePath(source.id)}>{source.name}</Link>
                  </th>
                  <td>{SOURCE_TYPE_LABELS[source.source_type]}</td>
                  <td>{playbookName(source.playbook_id) ?? '—'}</td>
                  <td>
                    <span class={`status status-${source.status}`}>
                      {STATUS_LABELS[source.status]}
                    </span>
                  </td>
                  <td class="number" data-column="accepted">
                    {formatCount(source.accepted)}
                  </td>
                  <td class="number" data-column="duplicate">
                    {formatCount(source.duplicate)}
                  </td>
                  <td class="number" data-column="rejected">
                    {formatCount(source.rejected.total)}
                  </td>
                  <td class="number" data-column="outcomes">
                    {formatCount(outcomesTotal(source.outcomes))}
                  </td>
                  <td class="number">{formatCount(source.outcomes.qualified ?? 0)}</td>
                  <td class="number">{formatCount(source.outcomes.do_not_contact ?? 0)}</td>
                  <td>
                    <div class="row-actions">
                      <button
                        type="button"
                        class="icon-button"
                        aria-label={`Integration Instructions for ${source.name}`}
                        title="Integration Instructions"
                        onClick={() => setDialog({ kind: 'instructions', source })}
                      >
                        <LinkIcon />
                      </button>
                      {(['pause', 'rotate', 'delete'] as const).map((kind) => {
                        const action: Action =
                          kind === 'pause' && source.status === 'paused' ? 'resume' : kind;
                        return (
                          <button
                            key={kind}
                            type="button"
                            class={
                              action === 'delete'
                                ? 'secondary small danger-text'
                                : 'secondary small'
                            }
                            onClick={() => setDialog({ kind: 'confirm', action, source })}
                          >
                            {CONFIRM[action].button}
                            <span class="visually-hidden"> {source.name}</span>
                          </button>
                        );
                      })}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        label="Pages of marketing sources"
        page={cursors.length}
        next={nextCursor}
        onNext={(next) => setCursors([...cursors, next])}
        onPrevious={() => setCursors(cursors.slice(0, -1))}
      />
      {dialog?.kind === 'new' ? (
        <NewSourceDialog
          playbooks={playbooks}
          onClose={closeDialog}
          onCreated={(source) => {
            setNotice(
              `${source.name} is created. Hand its Integration Instructions to the seller.`,
            );
            closeDialog();
            setCursors([undefined]);
            void load();
          }}
        />
      ) : null}
      {dialog?.kind === 'instructions' ? (
        <IntegrationInstructionsDialog source={dialog.source} onClose={closeDialog} />
      ) : null}
      {dialog?.kind === 'confirm' ? (
        <ConfirmDialog
          title={CONFIRM[dialog.action].title(dialog.source.name)}
          confirmLabel={CONFIRM[dialog.action].button}
          danger={dialog.action === 'delete'}
          onConfirm={() => act(dialog.action, dialog.source)}
          onClose={closeDialog}
        >
          <p>{CONFIRM[dialog.action].text}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
