/**
 * Paging through a cursor-paged list (the API's `next_cursor`), one page at a
 * time: the Previous / Page n / Next control, and the cursors that got here.
 */
import { useState } from 'preact/hooks';

/**
 * The cursors of the pages before this one and this page's (undefined: the first),
 * for the filters (`key`) they were paged with: other filters (chosen, or Back)
 * start over at the first page.
 */
export function useCursorPages(key: string) {
  const [paging, setPaging] = useState<{ key: string; cursors: (string | undefined)[] }>({
    key,
    cursors: [undefined],
  });
  const cursors = paging.key === key ? paging.cursors : [undefined];
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length,
    next: (cursor: string) => setPaging({ key, cursors: [...cursors, cursor] }),
    previous: () => setPaging({ key, cursors: cursors.slice(0, -1) }),
  };
}

/** Previous page / Page n / Next page, shown once there is more than one page. */
export function Pager({
  label,
  page,
  next,
  onNext,
  onPrevious,
}: {
  label: string;
  page: number;
  /** The next page's cursor: null on the last page, undefined while loading. */
  next: string | null | undefined;
  onNext(cursor: string): void;
  onPrevious(): void;
}) {
  if (page === 1 && !next) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="secondary" disabled={page === 1} onClick={onPrevious}>
        Previous page
      </button>
      <span>Page {page}</span>
      <button type="button" class="secondary" disabled={!next} onClick={() => next && onNext(next)}>
        Next page
      </button>
    </nav>
  );
}
