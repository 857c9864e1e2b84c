/**
 * The choices of a dropdown (an account's playbooks or sources) come from every
 * page of a list, up to `maxPages` pages of 100: a choice the first page misses
 * could not be chosen at all. Longer lists are what paged screens are for.
 */
export async function everyPage<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; next_cursor: string | null }>,
  maxPages = 10,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const { data, next_cursor } = await fetchPage(cursor);
    items.push(...data);
    if (!next_cursor) break;
    cursor = next_cursor;
  }
  return items;
}
