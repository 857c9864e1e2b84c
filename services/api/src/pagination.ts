export interface PageRequest {
  limit: number;
  cursor: string | undefined;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** The paging part of a query validated by a list's query schema (listQuerySchema). */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** `limit` (default 20) and `cursor` of a list's query. */
export function pageRequestOf(query: PageQuery): PageRequest {
  return { limit: query.limit ?? 20, cursor: query.cursor };
}

/**
 * Keyset pagination on time-sortable ids, newest first: the findMany arguments
 * that ask the store for `limit + 1` of the rows matching `where` with
 * `id < cursor`; the extra row only says another page exists. The cursor is the
 * last id shown, so a row created meanwhile never shifts a page.
 */
export function keyset<W extends object>(page: PageRequest, where: W) {
  return {
    where: { ...where, ...(page.cursor === undefined ? {} : { id: { lt: page.cursor } }) },
    orderBy: { id: 'desc' as const },
    take: page.limit + 1,
  };
}

/** Cuts the extra row off and sets next_cursor. */
export function pageOf<Row extends { id: string }, T>(
  rows: readonly Row[],
  page: PageRequest,
  present: (row: Row) => T,
): Page<T> {
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    data: shown.map(present),
    next_cursor: rows.length > page.limit && last ? last.id : null,
  };
}
