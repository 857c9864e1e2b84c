import '../ui/sources.css';
import '../ui/do-not-contact.css';
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, useSearchParams } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText, isErrorEnvelope } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import { useApi } from '../session';
import { ConfirmDialog, Modal } from '../ui/dialog';
import { FieldError, fieldProblems, invalidProps } from '../ui/form-errors';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorPages } from '../ui/pager';
import { formatCount } from '../ui/sources';
import {
  type ApiKey,
  type Entry,
  importHref,
  isImportId,
  isReason,
  keyInWords,
  PAGE_SIZE,
  REASON_ORDER,
  REASONS,
  removalsHref,
  screenHref,
  sentence,
  useKeyNames,
} from '../ui/suppressions';
import {
  type PastRemoval,
  PastRemovalText,
  pastRemovalOf,
  RemovedView,
} from './do-not-contact-removals';
import { activityAnchor } from './lead';

type ImportResult = Schema<'SuppressionImportResult'>;

/** The import's body limit (docs/api.md, "The list's API"): 1 MiB. */
const IMPORT_MAX_BYTES = 1024 * 1024;
/** An import takes at most this many rows (the API says so too, as too_many_rows). */
const IMPORT_MAX_ROWS = 10_000;
/** Bad lines listed in the import dialog; the others are counted. */
const BAD_LINES_SHOWN = 50;

/**
 * "Show this import's phones": the list filtered to what `importId` added. `named`:
 * the id is said to screen readers too, where the text around does not say it.
 */
function ImportLink({ importId, named = true }: { importId: string; named?: boolean }) {
  return (
    <Link href={importHref(importId)} class="dnc-import-link">
      Show this import's phones
      {named ? <span class="visually-hidden"> ({importId})</span> : null}
    </Link>
  );
}

/** Where an entry came from: the lead's STOP reply, or the API key that added or imported it. */
function Provenance({
  entry,
  keys,
  shownImport,
}: {
  entry: Entry;
  keys: Map<string, ApiKey>;
  /** The import the list is filtered to: its rows need no link to it. */
  shownImport: string | undefined;
}) {
  if (entry.reason === 'opted_out') {
    if (!entry.lead_id) return <>A reply from a lead</>;
    const href = `/leads/${entry.lead_id}${entry.activity_id ? `#${activityAnchor(entry.activity_id)}` : ''}`;
    return (
      <Link href={href}>
        Lead's timeline<span class="visually-hidden"> for {entry.phone}</span>
      </Link>
    );
  }
  if (entry.reason === 'imported') {
    return (
      <>
        Import <code>{entry.import_id ?? '—'}</code>, with {keyInWords(entry.api_key_id, keys)}
        {entry.import_id && entry.import_id !== shownImport ? (
          <>
            <br />
            <ImportLink importId={entry.import_id} />
          </>
        ) : null}
      </>
    );
  }
  return <>Added with {keyInWords(entry.api_key_id, keys)}</>;
}

/** Why an entry is listed, as a sentence (the lookup's answer). */
function WhyListed({ entry, keys }: { entry: Entry; keys: Map<string, ApiKey> }) {
  switch (entry.reason) {
    case 'opted_out':
      return (
        <>
          The person opted out: a lead with this phone replied STOP (or its outcome was reported as
          opted out).{' '}
          {entry.lead_id ? (
            <Link
              href={`/leads/${entry.lead_id}${entry.activity_id ? `#${activityAnchor(entry.activity_id)}` : ''}`}
            >
              Open the lead's timeline
            </Link>
          ) : null}
        </>
      );
    case 'imported':
      return (
        <>
          Imported with {keyInWords(entry.api_key_id, keys)} (import{' '}
          <code>{entry.import_id ?? '—'}</code>).{' '}
          {entry.import_id ? <ImportLink importId={entry.import_id} /> : null}
        </>
      );
    case 'complaint':
      return <>A complaint, added with {keyInWords(entry.api_key_id, keys)}.</>;
    default:
      return <>Added by hand with {keyInWords(entry.api_key_id, keys)}.</>;
  }
}

type Lookup =
  | { kind: 'listed'; entry: Entry; past: PastRemoval }
  | { kind: 'not-listed'; asked: string; past: PastRemoval }
  | { kind: 'failed'; message: string };

/**
 * "Look up a phone": GET /suppressions/{phone}, in any notation, answered in a
 * sentence, with when and by which key the phone was last taken off the list
 * (GET /suppressions/removals?phone=, asked at the same time).
 */
function LookupForm({
  keys,
  lookup,
  onLookup,
  onRemove,
}: {
  keys: Map<string, ApiKey>;
  lookup: Lookup | undefined;
  onLookup(result: Lookup | undefined): void;
  onRemove(entry: Entry): void;
}) {
  const api = useApi();
  const [phone, setPhone] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const asked = phone.trim();
    onLookup(undefined);
    if (!asked) {
      setProblem('Enter the phone number to look up.');
      field.current?.focus();
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const [{ data, error, response }, past] = await Promise.all([
        api.GET('/suppressions/{phone}', { params: { path: { phone: asked } } }),
        pastRemovalOf(api, asked),
      ]);
      if (data) onLookup({ kind: 'listed', entry: data, past });
      else if (response.status === 404) onLookup({ kind: 'not-listed', asked, past });
      else if (response.status === 422) {
        setProblem(sentence(fieldProblems(error).phone ?? apiErrorText(error, response)));
        field.current?.focus();
      } else onLookup({ kind: 'failed', message: apiErrorText(error, response) });
    } catch (cause) {
      onLookup({ kind: 'failed', message: apiErrorText(cause) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="dnc-lookup-title" class="dnc-lookup">
      <h2 id="dnc-lookup-title">Look up a phone</h2>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Look up a phone">
        <label for="dnc-lookup-phone">Phone</label>
        <div class="inline">
          <input
            {...invalidProps('dnc-lookup-phone', problem, 'dnc-lookup-help')}
            ref={field}
            type="search"
            value={phone}
            autocomplete="off"
            onInput={(event) => setPhone(event.currentTarget.value)}
          />
          <button type="submit" disabled={busy} aria-busy={busy}>
            Look up
          </button>
        </div>
        <p id="dnc-lookup-help" class="help">
          In any notation: <code>(512) 555-0100</code>, <code>512.555.0100</code>,{' '}
          <code>+15125550100</code>; numbers outside the US and Canada with their leading{' '}
          <code>+</code>.
        </p>
        <FieldError id="dnc-lookup-phone">{problem}</FieldError>
      </form>
      <div role="status" class="dnc-answer-region">
        {lookup?.kind === 'listed' ? (
          <div class="dnc-answer dnc-answer-listed">
            <p>
              <strong>{lookup.entry.phone}</strong> is on the do-not-contact list, since{' '}
              {formatDateTime(lookup.entry.created_at)}. No play texts or calls it.
            </p>
            <p>
              <span class="dnc-why">Why:</span> <WhyListed entry={lookup.entry} keys={keys} />
            </p>
            {lookup.entry.note ? (
              <p>
                <span class="dnc-why">Note:</span> {lookup.entry.note}
              </p>
            ) : null}
            <PastRemovalText past={lookup.past} listed keys={keys} />
          </div>
        ) : lookup?.kind === 'not-listed' ? (
          <div class="dnc-answer">
            <p>
              <strong>{lookup.asked}</strong> is not on the do-not-contact list: plays may text and
              call it.
            </p>
            <PastRemovalText past={lookup.past} listed={false} keys={keys} />
          </div>
        ) : null}
      </div>
      {lookup?.kind === 'listed' ? (
        <button
          type="button"
          class="secondary small danger-text"
          onClick={() => onRemove(lookup.entry)}
        >
          Remove {lookup.entry.phone} from the list
        </button>
      ) : null}
      {lookup?.kind === 'failed' ? <ErrorMessage>{lookup.message}</ErrorMessage> : null}
    </section>
  );
}

type AddField = 'phone' | 'note';

/** "Add a phone": POST /suppressions with a reason (by hand or a complaint) and a note. */
function AddDialog({
  onClose,
  onAdded,
}: {
  onClose(): void;
  onAdded(entry: Entry, created: boolean): void;
}) {
  const api = useApi();
  const [phone, setPhone] = useState('');
  const [reason, setReason] = useState<'manual' | 'complaint'>('manual');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<AddField, string>>>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  // After a refusal, keyboard focus goes to the first field to correct.
  useEffect(() => {
    const first = (['phone', 'note'] as const).find((name) => errors[name]);
    if (first) document.getElementById(`dnc-add-${first}`)?.focus();
  }, [errors]);

  async function save(event: Event) {
    event.preventDefault();
    setError(undefined);
    if (!phone.trim()) {
      setErrors({ phone: 'Enter the phone number to put on the list.' });
      return;
    }
    setBusy(true);
    try {
      const {
        data,
        error: failure,
        response,
      } = await api.POST('/suppressions', {
        body: { phone: phone.trim(), reason, ...(note.trim() ? { note: note.trim() } : {}) },
      });
      if (data) {
        onAdded(data, response.status === 201);
        return;
      }
      const problems = fieldProblems(failure);
      const fields: Partial<Record<AddField, string>> = {};
      if (problems.phone) fields.phone = sentence(problems.phone);
      if (problems.note) fields.note = sentence(problems.note);
      setErrors(fields);
      setError(
        Object.keys(fields).length > 0
          ? 'The phone was not added: correct the fields marked below.'
          : apiErrorText(failure, response),
      );
    } catch (cause) {
      setError(apiErrorText(cause));
    }
    setBusy(false);
  }

  return (
    <Modal title="Add a phone to the do-not-contact list" onClose={onClose}>
      <form class="form" onSubmit={(event) => void save(event)} noValidate>
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <label for="dnc-add-phone">Phone</label>
        <input
          {...invalidProps('dnc-add-phone', errors.phone, 'dnc-add-phone-help')}
          value={phone}
          autofocus
          autocomplete="off"
          aria-required="true"
          onInput={(event) => setPhone(event.currentTarget.value)}
        />
        <p id="dnc-add-phone-help" class="help">
          In any notation: <code>(512) 555-0100</code>, or <code>+44 20 7946 0958</code> outside the
          US and Canada.
        </p>
        <FieldError id="dnc-add-phone">{errors.phone}</FieldError>

        <label for="dnc-add-reason">Reason</label>
        <select
          id="dnc-add-reason"
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value as 'manual' | 'complaint')}
        >
          <option value="manual">Asked not to be contacted (added by hand)</option>
          <option value="complaint">Complaint</option>
        </select>

        <label for="dnc-add-note">Note (optional)</label>
        <textarea
          {...invalidProps('dnc-add-note', errors.note, 'dnc-add-note-help')}
          value={note}
          rows={3}
          maxLength={1000}
          onInput={(event) => setNote(event.currentTarget.value)}
        />
        <p id="dnc-add-note-help" class="help">
          Kept with the entry: who asked, the ticket (up to 1,000 characters).
        </p>
        <FieldError id="dnc-add-note">{errors.note}</FieldError>

        <div class="dialog-actions">
          <button type="button" class="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={busy} aria-busy={busy}>
            Add to the list
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** A refused import's bad rows: each detail's line number and the API's words. */
interface BadLine {
  line: number | undefined;
  message: string;
}

function badLinesOf(cause: unknown): BadLine[] {
  if (!isErrorEnvelope(cause)) return [];
  return (cause.error.details ?? []).map((detail) => {
    const line = /^line (\d+)$/.exec(detail.field ?? '')?.[1];
    return { line: line ? Number(line) : undefined, message: sentence(detail.message) };
  });
}

/** The text of line `n` (from 1) of `text`, and where it starts and ends. */
function lineOf(text: string, n: number): { start: number; end: number; content: string } {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return { start: text.length, end: text.length, content: '' };
    start = next + 1;
  }
  const stop = text.indexOf('\n', start);
  const end = stop < 0 ? text.length : stop;
  return { start, end, content: text.slice(start, end) };
}

/**
 * "Import phones": pasted phones or a chosen .csv file's text (put in the box, to
 * check and correct), sent as text/csv to POST /suppressions/import. All or
 * nothing: a refusal lists each bad line, and nothing was stored.
 */
function ImportDialog({
  onClose,
  onImported,
}: {
  onClose(): void;
  onImported(result: ImportResult): void;
}) {
  const api = useApi();
  const [text, setText] = useState('');
  const [fileNote, setFileNote] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [badLines, setBadLines] = useState<BadLine[]>([]);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const refusal = useRef<HTMLDivElement>(null);

  async function chooseFile(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setBadLines([]);
    if (file.size > IMPORT_MAX_BYTES) {
      setFileNote(undefined);
      setProblem(
        `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB: an import may be up to 1 MB (about ${formatCount(IMPORT_MAX_ROWS)} phones). Split it into smaller files.`,
      );
      input.value = '';
      return;
    }
    try {
      // Line breaks as the box has them, so that the API's line numbers are the box's.
      const content = (await file.text()).replace(/\r\n?/g, '\n');
      setText(content);
      setProblem(undefined);
      const lines = content.split('\n').filter((line) => line.trim() !== '').length;
      setFileNote(
        `${file.name} (${formatCount(lines)} line${lines === 1 ? '' : 's'}) is in the box above: check it, then choose Import.`,
      );
    } catch {
      setProblem(`${file.name} could not be read. Choose it again, or paste its phones.`);
    }
  }

  function showLine(n: number) {
    const field = box.current;
    if (!field) return;
    const { start, end } = lineOf(field.value, n);
    field.focus();
    field.setSelectionRange(start, end);
  }

  async function submit(event: Event) {
    event.preventDefault();
    setBadLines([]);
    if (!text.trim()) {
      setProblem('Paste the phones to import, one per line, or choose a CSV file.');
      box.current?.focus();
      return;
    }
    if (new Blob([text]).size > IMPORT_MAX_BYTES) {
      setProblem(
        `This is over 1 MB: an import may be up to 1 MB (about ${formatCount(IMPORT_MAX_ROWS)} phones). Import it in parts.`,
      );
      box.current?.focus();
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const { data, error, response } = await api.POST('/suppressions/import', {
        // As CSV, so that the API names bad rows by the box's own line numbers.
        body: text,
        bodySerializer: (body) => body,
        headers: { 'Content-Type': 'text/csv; charset=utf-8' },
      });
      if (data) {
        onImported(data);
        return;
      }
      const lines = response.status === 422 ? badLinesOf(error) : [];
      if (lines.some((bad) => bad.line !== undefined)) {
        setBadLines(lines);
        setTimeout(() => refusal.current?.focus(), 0);
      } else if (lines.length > 0) {
        setProblem(`Nothing was imported. ${lines.map((bad) => bad.message).join(' ')}`);
        box.current?.focus();
      } else {
        setProblem(`Nothing was imported. ${apiErrorText(error, response)}`);
      }
    } catch (cause) {
      setProblem(`Nothing was imported. ${apiErrorText(cause)}`);
    }
    setBusy(false);
  }

  const refused = badLines.length > 0;
  return (
    <Modal title="Import phones to the do-not-contact list" onClose={onClose} wide>
      <form class="form" onSubmit={(event) => void submit(event)} noValidate>
        <label for="dnc-import-text">Phones</label>
        <textarea
          {...(refused
            ? {
                id: 'dnc-import-text',
                'aria-invalid': 'true' as const,
                'aria-describedby': 'dnc-import-refusal dnc-import-help',
              }
            : invalidProps('dnc-import-text', problem, 'dnc-import-help'))}
          ref={box}
          class="dnc-import-text"
          value={text}
          rows={6}
          spellcheck={false}
          autofocus
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <p id="dnc-import-help" class="help">
          One phone per line, in any notation, or a spreadsheet's or CRM's CSV export whose header
          row names the phone column <code>phone</code>, <code>phone number</code> or{' '}
          <code>phone_number</code> (its other columns are not read). Up to{' '}
          {formatCount(IMPORT_MAX_ROWS)} phones. Phones already listed keep their entry.
        </p>
        <FieldError id="dnc-import-text">{problem}</FieldError>

        <label for="dnc-import-file">Or choose a CSV file</label>
        <input
          id="dnc-import-file"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          aria-describedby="dnc-import-file-note"
          onChange={(event) => void chooseFile(event.currentTarget)}
        />
        <p id="dnc-import-file-note" class="help" role="status">
          {fileNote ?? 'Its text is put in the box above, to check before importing.'}
        </p>

        {refused ? (
          <div id="dnc-import-refusal" class="dnc-refusal" role="alert" tabIndex={-1} ref={refusal}>
            <p class="error">
              Nothing was imported: {formatCount(badLines.length)} line
              {badLines.length === 1 ? ' was' : 's were'} refused. Every line is checked before any
              is stored; correct {badLines.length === 1 ? 'it' : 'them'} in the box and import
              again.
            </p>
            <ul class="dnc-bad-lines">
              {badLines.slice(0, BAD_LINES_SHOWN).map((bad) => {
                const content = bad.line === undefined ? '' : lineOf(text, bad.line).content;
                return (
                  <li key={`${bad.line}-${bad.message}`}>
                    {bad.message}
                    {content.trim() ? (
                      <>
                        {' '}
                        <code>{content}</code>
                      </>
                    ) : null}
                    {bad.line === undefined ? null : (
                      <button
                        type="button"
                        class="secondary small"
                        onClick={() => showLine(bad.line!)}
                      >
                        Show line {bad.line}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
            {badLines.length > BAD_LINES_SHOWN ? (
              <p class="help">
                And {formatCount(badLines.length - BAD_LINES_SHOWN)} more line
                {badLines.length - BAD_LINES_SHOWN === 1 ? '' : 's'}.
              </p>
            ) : null}
          </div>
        ) : null}

        <div class="dialog-actions">
          <button type="button" class="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={busy} aria-busy={busy}>
            Import
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The confirmation before DELETE /suppressions/{phone} (Cancel is focused). */
function RemoveDialog({
  entry,
  onClose,
  onRemoved,
}: {
  entry: Entry;
  onClose(): void;
  onRemoved(): void;
}) {
  const api = useApi();
  async function remove(): Promise<string | undefined> {
    try {
      const { error, response } = await api.DELETE('/suppressions/{phone}', {
        params: { path: { phone: entry.phone } },
      });
      // Already off the list (removed meanwhile): what was asked is done.
      if (!response.ok && response.status !== 404) return apiErrorText(error, response);
      onRemoved();
      return undefined;
    } catch (cause) {
      return apiErrorText(cause);
    }
  }
  return (
    <ConfirmDialog
      title={`Remove ${entry.phone} from the do-not-contact list?`}
      confirmLabel="Remove from the list"
      danger
      onConfirm={remove}
      onClose={onClose}
    >
      <p>
        This phone may be contacted again by future plays: a lead with it that arrives from now on
        is texted and called as its playbook says. The removal is recorded, with the API key that
        made it and when, under Removed phones.
      </p>
      {entry.reason === 'opted_out' ? (
        <p class="warning" role="note">
          <strong>This person opted out.</strong> Remove the phone only if they have asked to be
          contacted again: the law prices each text to someone who revoked consent. A new STOP puts
          it back on the list.
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

function EntriesTable({
  entries,
  caption,
  keys,
  shownImport,
  onRemove,
}: {
  entries: Entry[];
  caption: string;
  keys: Map<string, ApiKey>;
  shownImport: string | undefined;
  onRemove(entry: Entry): void;
}) {
  return (
    <div class="table-scroll">
      <table class="dnc-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Phone</th>
            <th scope="col">Reason</th>
            <th scope="col">Came from</th>
            <th scope="col">Note</th>
            <th scope="col">Added</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.phone} data-phone={entry.phone}>
              <th scope="row">
                <code>{entry.phone}</code>
              </th>
              <td>
                <span class={`status dnc-reason-${entry.reason}`}>{REASONS[entry.reason]}</span>
              </td>
              <td>
                <Provenance entry={entry} keys={keys} shownImport={shownImport} />
              </td>
              <td class="dnc-note">{entry.note ?? '—'}</td>
              <td class="dnc-added">{formatDateTime(entry.created_at)}</td>
              <td>
                <button
                  type="button"
                  class="secondary small danger-text"
                  onClick={() => onRemove(entry)}
                >
                  Remove<span class="visually-hidden"> {entry.phone}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type ListState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'loaded'; entries: Entry[]; next: string | null };

/**
 * Listed phones: the list in phone order, 50 a page, filtered by reason
 * (`?reason=`) and to the phones one import added (`?import_id=`), both kept in
 * the address. `version` changes when the screen added, imported or removed.
 */
function ListedView({
  keys,
  version,
  heading,
  onRemove,
}: {
  keys: Map<string, ApiKey>;
  version: number;
  heading: RefObject<HTMLHeadingElement>;
  onRemove(entry: Entry): void;
}) {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const askedReason = params.get('reason');
  const reason = isReason(askedReason) ? askedReason : undefined;
  const askedImport = params.get('import_id')?.trim() || undefined;
  const importId = askedImport && isImportId(askedImport) ? askedImport : undefined;
  // An address with an import id that is none (mistyped, cut short) asks nothing of the API.
  const badImport = askedImport !== undefined && importId === undefined;
  const pages = useCursorPages(`${reason ?? ''} ${askedImport ?? ''}`);
  const [state, setState] = useState<ListState>({ kind: 'loading' });
  const loads = useRef(0);

  useEffect(() => {
    const mine = ++loads.current;
    if (badImport) return;
    setState({ kind: 'loading' });
    const { cursor } = pages;
    void (async () => {
      let next: ListState;
      try {
        const { data, error, response } = await api.GET('/suppressions', {
          params: {
            query: {
              limit: PAGE_SIZE,
              ...(reason ? { reason } : {}),
              ...(importId ? { import_id: importId } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        });
        next = data
          ? { kind: 'loaded', entries: data.data, next: data.next_cursor }
          : { kind: 'failed', message: apiErrorText(error, response) };
      } catch (cause) {
        next = { kind: 'failed', message: apiErrorText(cause) };
      }
      if (mine === loads.current) setState(next);
    })();
  }, [api, reason, importId, badImport, pages.cursor, version]);

  // When the import filter changes (a "Show this import's phones" link, Clear, Back),
  // keyboard focus goes to the heading, which names what is shown now: the link or
  // button used may be gone.
  const focusedFor = useRef(askedImport);
  useEffect(() => {
    if (focusedFor.current === askedImport) return;
    focusedFor.current = askedImport;
    heading.current?.focus();
  }, [askedImport]);

  const setFilter = (name: 'reason' | 'import_id', value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  const clearImport = (
    <button type="button" class="secondary small" onClick={() => setFilter('import_id', undefined)}>
      Clear the import filter
    </button>
  );
  const asListed = reason ? ` as “${REASONS[reason]}”` : '';

  return (
    <section aria-labelledby="dnc-list-title">
      <h2 id="dnc-list-title" tabIndex={-1} ref={heading}>
        {importId ? `Phones added by import ${importId}` : 'Listed phones'}
      </h2>
      <div class="dnc-filters">
        <div class="field-inline dnc-filter">
          <label for="dnc-reason">Reason</label>
          <select
            id="dnc-reason"
            value={reason ?? ''}
            onChange={(event) => setFilter('reason', event.currentTarget.value)}
          >
            <option value="">All reasons</option>
            {REASON_ORDER.map((value) => (
              <option key={value} value={value}>
                {REASONS[value]}
              </option>
            ))}
          </select>
        </div>
        {importId ? (
          <div class="dnc-active-filter">
            <p>
              Only the phones import <code>{importId}</code> added that are still on the list
              (phones it found already listed keep their own entry).
            </p>
            {clearImport}
          </div>
        ) : null}
      </div>
      {badImport ? (
        <div class="dnc-active-filter">
          <ErrorMessage>
            “{askedImport}” in the address is not an import id: an import's id is <code>imp_</code>{' '}
            and 26 letters and digits, as its result says.
          </ErrorMessage>
          {clearImport}
        </div>
      ) : state.kind === 'loading' ? (
        <p aria-busy="true">Loading the do-not-contact list…</p>
      ) : state.kind === 'failed' ? (
        <ErrorMessage>{state.message}</ErrorMessage>
      ) : state.entries.length === 0 && pages.page === 1 ? (
        importId ? (
          <p class="empty">
            No phone that import <code>{importId}</code> added is on the list{asListed}: it added
            none (every phone it had was already listed, or it is another account's import), or they
            have all been removed since.
          </p>
        ) : reason ? (
          <p class="empty">
            No phone is listed as “{REASONS[reason]}”. Choose All reasons to see the others.
          </p>
        ) : (
          <div class="empty">
            <h3>No phone on the list yet</h3>
            <p>
              A lead's STOP reply puts its phone here. To keep a phone from ever being contacted (a
              person who asked by email or on the phone, a complaint), choose{' '}
              <strong>Add a phone</strong>; to bring a list from another system, choose{' '}
              <strong>Import phones</strong>.
            </p>
          </div>
        )
      ) : state.entries.length === 0 ? (
        <p class="empty">No phone is on this page any more: go to the previous page.</p>
      ) : (
        <EntriesTable
          entries={state.entries}
          caption={
            importId
              ? `Phones added by import ${importId} and still listed, in phone order`
              : 'Phones on the do-not-contact list, in phone order'
          }
          keys={keys}
          shownImport={importId}
          onRemove={onRemove}
        />
      )}
      <Pager
        label="Pages of the do-not-contact list"
        page={pages.page}
        next={state.kind === 'loaded' ? state.next : undefined}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </section>
  );
}

type Dialog = { kind: 'add' } | { kind: 'import' } | { kind: 'remove'; entry: Entry };

/**
 * Do not contact: the account's do-not-contact list (Listed phones, filtered by
 * reason or import) and every removal from it (Removed phones), the view and its
 * filters in the address; a lookup of one phone, adding one, importing many, and
 * removing one after a confirmation (docs/dashboard.md, "Do not contact").
 */
export function DoNotContactScreen() {
  const keys = useKeyNames();
  const [params] = useSearchParams();
  const view = params.get('view') === 'removed' ? 'removed' : 'listed';
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<ComponentChildren>();
  const [dialog, setDialog] = useState<Dialog>();
  const [lookup, setLookup] = useState<Lookup>();
  const viewHeading = useRef<HTMLHeadingElement>(null);

  const changed = () => setVersion((n) => n + 1);
  const closeDialog = () => setDialog(undefined);
  const remove = (entry: Entry) => setDialog({ kind: 'remove', entry });

  return (
    <Screen title="Do not contact">
      <p class="help dnc-intro">
        No play texts or calls a phone on this list, for any lead from any source: a lead with a
        listed phone is still accepted, and ends with the outcome “Do not contact”. A lead's STOP
        reply puts its phone here at once; you can add phones by hand or import a list.
      </p>
      <div class="toolbar">
        <div class="actions">
          <button type="button" onClick={() => setDialog({ kind: 'add' })}>
            Add a phone
          </button>
          <button type="button" class="secondary" onClick={() => setDialog({ kind: 'import' })}>
            Import phones
          </button>
        </div>
      </div>
      <p role="status" class="notice">
        {notice ?? ''}
      </p>

      <LookupForm keys={keys} lookup={lookup} onLookup={setLookup} onRemove={remove} />

      <nav class="dnc-views" aria-label="Do not contact views">
        <Link href={screenHref()} aria-current={view === 'listed' ? 'page' : undefined}>
          Listed phones
        </Link>
        <Link href={removalsHref()} aria-current={view === 'removed' ? 'page' : undefined}>
          Removed phones
        </Link>
      </nav>
      {view === 'removed' ? (
        <RemovedView keys={keys} version={version} heading={viewHeading} />
      ) : (
        <ListedView keys={keys} version={version} heading={viewHeading} onRemove={remove} />
      )}

      {dialog?.kind === 'add' ? (
        <AddDialog
          onClose={closeDialog}
          onAdded={(entry, created) => {
            setNotice(
              created
                ? `${entry.phone} is on the do-not-contact list now: no play will text or call it.`
                : `${entry.phone} was already on the list (${REASONS[entry.reason]}, since ${formatDateTime(entry.created_at)}): its entry is kept as it was, without the reason and note given now.`,
            );
            closeDialog();
            changed();
          }}
        />
      ) : null}
      {dialog?.kind === 'import' ? (
        <ImportDialog
          onClose={closeDialog}
          onImported={(result) => {
            const phones = (n: number) => `${formatCount(n)} phone${n === 1 ? '' : 's'}`;
            setNotice(
              <>
                Imported {phones(result.imported)}; {phones(result.already_listed)}{' '}
                {result.already_listed === 1 ? 'was' : 'were'} already listed or repeated (import{' '}
                {result.import_id}).
                {result.imported > 0 ? (
                  <>
                    {' '}
                    <ImportLink importId={result.import_id} named={false} />
                  </>
                ) : null}
              </>,
            );
            closeDialog();
            changed();
          }}
        />
      ) : null}
      {dialog?.kind === 'remove' ? (
        <RemoveDialog
          entry={dialog.entry}
          onClose={closeDialog}
          onRemoved={() => {
            const { phone } = dialog.entry;
            setNotice(
              <>
                {phone} is off the do-not-contact list: future plays may text and call it. The
                removal is recorded under <Link href={removalsHref()}>Removed phones</Link>.
              </>,
            );
            if (lookup?.kind === 'listed' && lookup.entry.phone === phone) setLookup(undefined);
            // Its row (and Remove button) is gone: focus goes to the view's heading,
            // once the modal dialog has closed (the page is inert until then).
            setTimeout(() => viewHeading.current?.focus(), 0);
            changed();
          }}
        />
      ) : null}
    </Screen>
  );
}
