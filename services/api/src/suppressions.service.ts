import {
  SUPPRESSION_IMPORT_MAX_ROWS,
  type SuppressionReason,
  toE164,
  trimInvisible,
} from '@leadhook/contracts';
import { newId, type PrismaClient } from '@leadhook/db';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import type { ErrorDetail } from './validation.js';

/**
 * The do-not-contact list through the API (docs/api.md, "Do-not-contact"). An
 * add takes the phone's exclusive advisory lock, the key activity_record takes
 * for a STOP (prisma/functions/activity/activity_record.sql), so that a step
 * claim holding it shared (playbook_step_claim) either commits its send first
 * or waits and then sees the entry.
 */

interface SuppressionRow {
  phone: string;
  reason: string;
  leadId: string | null;
  activityId: string | null;
  apiKeyId: string | null;
  importId: string | null;
  note: string | null;
  createdAt: Date;
}

export function presentSuppression(row: SuppressionRow) {
  return {
    phone: row.phone,
    reason: row.reason as SuppressionReason,
    lead_id: row.leadId,
    activity_id: row.activityId,
    api_key_id: row.apiKeyId,
    import_id: row.importId,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

export type Suppression = ReturnType<typeof presentSuppression>;

interface RemovalRow {
  id: string;
  phone: string;
  reason: string;
  listedAt: Date;
  removedAt: Date;
  removedByApiKeyId: string;
}

function presentRemoval(row: RemovalRow) {
  return {
    id: row.id,
    phone: row.phone,
    reason: row.reason as SuppressionReason,
    listed_at: row.listedAt.toISOString(),
    removed_at: row.removedAt.toISOString(),
    removed_by_api_key_id: row.removedByApiKeyId,
  };
}

export type SuppressionRemoval = ReturnType<typeof presentRemoval>;

/** `text` in E.164 as intake stores a lead's phone, or null when it is not a dialable number. */
export function normalizePhone(text: string): string | null {
  return toE164(trimInvisible(text));
}

/**
 * Adds `phone` (E.164) for the caller's key. A phone already listed keeps its
 * first entry, which is answered with created false.
 */
export async function addSuppression(
  prisma: PrismaClient,
  accountId: string,
  apiKeyId: string,
  phone: string,
  reason: 'manual' | 'complaint',
  note: string | null,
): Promise<{ created: boolean; suppression: Suppression }> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`
      SELECT pg_advisory_xact_lock(do_not_contact_lock_key(${accountId}, ${phone}))`;
    const inserted = await tx.$executeRaw`
      INSERT INTO suppressions (account_id, phone, reason, api_key_id, note)
      VALUES (${accountId}, ${phone}, ${reason}, ${apiKeyId}, ${note})
      ON CONFLICT (account_id, phone) DO NOTHING`;
    const row = await tx.suppression.findUniqueOrThrow({
      where: { accountId_phone: { accountId, phone } },
    });
    return { created: inserted === 1, suppression: presentSuppression(row) };
  });
}

export async function getSuppression(
  prisma: PrismaClient,
  accountId: string,
  phone: string,
): Promise<Suppression | null> {
  const row = await prisma.suppression.findUnique({
    where: { accountId_phone: { accountId, phone } },
  });
  return row ? presentSuppression(row) : null;
}

/** A page in phone order (the key's order): the cursor is the last phone shown. */
export async function listSuppressions(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
  filter: { reason?: SuppressionReason | undefined; importId?: string | undefined },
): Promise<Page<Suppression>> {
  const { reason, importId } = filter;
  const rows = await prisma.suppression.findMany({
    where: {
      accountId,
      ...(reason === undefined ? {} : { reason }),
      ...(importId === undefined ? {} : { importId }),
      ...(page.cursor === undefined ? {} : { phone: { gt: page.cursor } }),
    },
    orderBy: { phone: 'asc' },
    take: page.limit + 1,
  });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    data: shown.map(presentSuppression),
    next_cursor: rows.length > page.limit && last ? last.phone : null,
  };
}

/**
 * Takes `phone` off the list and records who did and when, in one statement:
 * false when it was not listed.
 */
export async function removeSuppression(
  prisma: PrismaClient,
  accountId: string,
  apiKeyId: string,
  phone: string,
): Promise<boolean> {
  const removed = await prisma.$executeRaw`
    WITH gone AS (
      DELETE FROM suppressions WHERE account_id = ${accountId} AND phone = ${phone}
      RETURNING reason, created_at)
    INSERT INTO suppression_removals (id, account_id, phone, reason, listed_at, removed_by_api_key_id)
    SELECT ${newId('suppressionRemoval')}, ${accountId}, ${phone}, reason, created_at, ${apiKeyId}
    FROM gone`;
  return removed === 1;
}

/**
 * The removals of the account, newest first (the id's time; keyset on
 * suppression_removals (account_id, id)), optionally of one phone only.
 */
export async function listSuppressionRemovals(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
  phone: string | undefined,
): Promise<Page<SuppressionRemoval>> {
  const rows = await prisma.suppressionRemoval.findMany(
    keyset(page, { accountId, ...(phone === undefined ? {} : { phone }) }),
  );
  return pageOf(rows, page, presentRemoval);
}

/** Phones added per transaction (and advisory locks it holds) by an import. */
const IMPORT_CHUNK = 1_000;

/** The rows of an import: each one's text, and how a problem with it is named. */
interface ImportRow {
  text: unknown;
  field: string;
  row: string;
  /** Why the row is bad before its text is read as a phone. */
  problem?: string;
}

/** The phones of a JSON import: row n is `phones[n-1]`. */
export function jsonImportRows(phones: readonly unknown[]): ImportRow[] {
  return phones.map((text, i) => ({ text, field: `phones[${i}]`, row: `row ${i + 1}` }));
}

/** A header cell that names the phone column: `phone`, `Phone Number`, `phone_number`. */
const PHONE_HEADER = /^phone(?:[ _]?number)?$/i;

/**
 * The rows of a CSV import (RFC 4180, read by csv-parse: quoted fields, commas
 * and line breaks inside quotes, CRLF or LF, a byte order mark). Either one phone
 * per line, or a spreadsheet's export with a header row that names the phone
 * column (`phone`, `phone number` or `phone_number`, any case), whose other
 * columns are not read. Blank lines are skipped. Rows are named by their line,
 * counted from 1 as an editor shows them, the header included. Without such a
 * header a line with a second column is a bad row: which column is the phone
 * would be a guess.
 */
export function csvImportRows(text: string): ImportRow[] {
  // With `info` each record comes wrapped, which the types do not say.
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // Line breaks made one kind first: csv-parse counts a CRLF inside quotes as two lines.
    records = parseCsv(text.replace(/\r\n?/g, '\n'), {
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as unknown as typeof records;
  } catch (err) {
    const line = err instanceof CsvError ? Number(err.lines ?? 1) : 1;
    const at = { field: `line ${line}`, row: `line ${line}` };
    return [{ ...at, text: '', problem: 'not valid CSV (a quoted field is not closed)' }];
  }
  const cells = records.map(({ record, info }) => ({
    values: record.map(trimInvisible),
    // info.lines is the record's last line; a quoted field may span lines.
    line: info.lines - record.reduce((n, v) => n + (v.match(/\n/g)?.length ?? 0), 0),
  }));
  const header = cells[0]?.values ?? [];
  const phoneColumn = header.findIndex((v) => PHONE_HEADER.test(v));
  const rows: ImportRow[] = [];
  for (const [i, { values, line }] of cells.entries()) {
    if (i === 0 && phoneColumn >= 0) continue;
    if (values.every((v) => v === '')) continue;
    const at = { field: `line ${line}`, row: `line ${line}` };
    if (phoneColumn >= 0) {
      const phone = values[phoneColumn] ?? '';
      if (values.length > header.length) {
        rows.push({ ...at, text: phone, problem: 'more columns than the header row names' });
      } else if (phone === '') {
        rows.push({ ...at, text: phone, problem: 'no phone in the phone column' });
      } else {
        rows.push({ ...at, text: phone });
      }
    } else if (values.length > 1) {
      rows.push({
        ...at,
        text: values.join(','),
        problem: 'one phone per line, or a header row naming the phone column',
      });
    } else {
      rows.push({ ...at, text: values[0] ?? '' });
    }
  }
  return rows;
}

export type ImportResult =
  | { kind: 'ok'; import_id: string; imported: number; already_listed: number }
  | { kind: 'invalid'; details: ErrorDetail[] };

/**
 * Every row is checked first; any bad one refuses the whole import (nothing is
 * stored) with one detail per bad row. Otherwise every new phone is added with
 * reason `imported` and this import's id, IMPORT_CHUNK phones per transaction,
 * each taking its phones' advisory locks in ascending key order (so two imports
 * cannot deadlock). Chunks bound the lock slots one import holds: PostgreSQL's
 * lock table is shared by the whole server (docs/operations.md, "Scaling").
 * A failure between chunks leaves the earlier ones stored; sending the import
 * again is safe (their phones count as already listed).
 */
export async function importSuppressions(
  prisma: PrismaClient,
  accountId: string,
  apiKeyId: string,
  rows: readonly ImportRow[],
): Promise<ImportResult> {
  if (rows.length === 0) {
    return { kind: 'invalid', details: [{ field: null, code: 'required', message: 'No phones.' }] };
  }
  if (rows.length > SUPPRESSION_IMPORT_MAX_ROWS) {
    return {
      kind: 'invalid',
      details: [
        {
          field: null,
          code: 'too_many_rows',
          message: `${rows.length} phones: an import takes at most ${SUPPRESSION_IMPORT_MAX_ROWS}.`,
        },
      ],
    };
  }
  const details: ErrorDetail[] = [];
  const phones = new Set<string>();
  for (const row of rows) {
    const phone =
      typeof row.text === 'string' && row.problem === undefined ? normalizePhone(row.text) : null;
    if (phone === null) {
      const problem = row.problem ?? 'not a phone number';
      details.push({ field: row.field, code: 'invalid', message: `${row.row}: ${problem}.` });
    } else {
      phones.add(phone);
    }
  }
  if (details.length > 0) return { kind: 'invalid', details };
  const importId = newId('suppressionImport');
  const all = [...phones];
  let imported = 0;
  for (let at = 0; at < all.length; at += IMPORT_CHUNK) {
    const chunk = all.slice(at, at + IMPORT_CHUNK);
    imported += await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`
        SELECT pg_advisory_xact_lock(k)
        FROM (SELECT do_not_contact_lock_key(${accountId}, p) AS k
              FROM unnest(${chunk}::text[]) AS p ORDER BY k OFFSET 0) AS keys`;
      return tx.$executeRaw`
        INSERT INTO suppressions (account_id, phone, reason, api_key_id, import_id)
        SELECT ${accountId}, p, 'imported', ${apiKeyId}, ${importId} FROM unnest(${chunk}::text[]) AS p
        ON CONFLICT (account_id, phone) DO NOTHING`;
    });
  }
  return {
    kind: 'ok',
    import_id: importId,
    imported,
    already_listed: rows.length - imported,
  };
}
