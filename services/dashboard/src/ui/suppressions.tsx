/**
 * What the Do not contact screen's views share (docs/dashboard.md, "Do not contact"):
 * the reasons in words, the API keys by name and the screen's addresses.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Schema } from '../api/client';
import { everyPage } from '../api/pages';
import { useApi } from '../session';

export type Entry = Schema<'Suppression'>;
export type Reason = Entry['reason'];
export type Removal = Schema<'SuppressionRemoval'>;
export type ApiKey = Schema<'ApiKey'>;

/** Entries (or removals) per page: one GET each. */
export const PAGE_SIZE = 50;

/** Why a phone is (or was) on the list, in words (docs/api.md, "Do-not-contact"). */
export const REASONS: Record<Reason, string> = {
  opted_out: 'Opted out',
  manual: 'Added by hand',
  imported: 'Imported',
  complaint: 'Complaint',
};
export const REASON_ORDER: readonly Reason[] = ['opted_out', 'manual', 'imported', 'complaint'];

export function isReason(value: string | null): value is Reason {
  return value !== null && value in REASONS;
}

/** An import's id as the API makes them (`imp_` and 26 letters and digits). */
const IMPORT_ID = /^imp_[0-9a-z]{26}$/;

export function isImportId(value: string): boolean {
  return IMPORT_ID.test(value);
}

/** The screen's path; its views and filters are its query (so reload and Back keep them). */
const SCREEN_PATH = '/do-not-contact';

/** The screen's address with `query` (the empty values dropped). */
export function screenHref(query: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `${SCREEN_PATH}?${text}` : SCREEN_PATH;
}

/** The list filtered to the phones one import added. */
export function importHref(importId: string): string {
  return screenHref({ import_id: importId });
}

/** The removals of one phone (any notation; the API reads it). */
export function removalsHref(phone?: string): string {
  return screenHref({ view: 'removed', phone });
}

/** "Not a phone number." or "note is too long (at most 1000).": a sentence. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The account's active API keys by id, to name the key that added or removed an entry. */
export function useKeyNames(): Map<string, ApiKey> {
  const api = useApi();
  const [keys, setKeys] = useState<Map<string, ApiKey>>(new Map());
  useEffect(() => {
    let live = true;
    everyPage<ApiKey>(async (cursor) => {
      const { data, error } = await api.GET('/account/api_keys', {
        params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } },
      });
      if (!data) throw error;
      return data;
    })
      .then((all) => live && setKeys(new Map(all.map((key) => [key.id, key]))))
      // Without the names the screen still says that a key added or removed the entry.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  return keys;
}

/**
 * The key that added or removed an entry: its name and prefix when it is one of the
 * account's active keys, else that it has been revoked since (the list of keys has
 * only the active ones). `start`: at the start of a sentence or a table cell.
 */
export function keyInWords(
  id: string | null,
  keys: Map<string, ApiKey>,
  { start = false }: { start?: boolean } = {},
): ComponentChildren {
  if (id === null) return start ? 'An API key' : 'an API key';
  const key = keys.get(id);
  if (!key) return start ? 'An API key revoked since' : 'an API key revoked since';
  return (
    <>
      {start ? 'The' : 'the'} API key “{key.name}” (<code>{key.prefix}…</code>)
    </>
  );
}
