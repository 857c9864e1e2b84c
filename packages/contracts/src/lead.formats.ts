/**
 * The custom formats of the lead submission schema (lead.schema.ts) and the
 * normalizations that go with them. Pure functions: intake and the
 * automation-platform action validate through lead.validation.ts, which
 * registers these with ajv.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * US states, DC and the inhabited territories (AS, GU, MP, PR, VI) plus the US
 * Minor Outlying Islands (UM), as USPS two-letter codes. Military "states" (AA,
 * AE, AP) are mail routing codes, not residences, and are refused.
 */
export const US_STATE_CODES: ReadonlySet<string> = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ ' +
    'NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM'
  ).split(' '),
);

/** Dates of birth before this year are typing mistakes, not people. */
export const EARLIEST_BIRTH_YEAR = 1900;

/** A phone number as stored: E.164, and the extension the seller wrote after it, if any. */
export interface ParsedPhone {
  e164: string;
  extension: string | null;
}

/**
 * An extension after the number: `x12`, `ext 12`, `ext. 12`, `extension 12` or
 * `#12`, optionally after a comma or semicolon. The rest must be the number alone.
 */
const EXTENSION = /^(.*?)[\s,;]*(?:extension|ext\.?|x|#)\s*(\d{1,10})$/i;
/** A letter of any script: a written phone number has none (outside its extension). */
const LETTER = /\p{L}/u;

/**
 * A dialable number, or null. US/Canada numbers may come in any common notation
 * (the default country is US); other countries need a leading +. The full ("max")
 * metadata checks the number ranges a country actually assigns, not just the
 * length. Any letter outside an extension makes the number invalid: libphonenumber
 * would drop trailing junk ("+15125550195abc") or read letters as keypad digits,
 * and a lead must not be stored under a number its seller did not write.
 */
export function parsePhone(text: string): ParsedPhone | null {
  const split = EXTENSION.exec(text);
  const number = split ? split[1]! : text;
  if (LETTER.test(number)) return null;
  const parsed = parsePhoneNumberFromString(number, 'US');
  if (!parsed?.isValid()) return null;
  return { e164: parsed.number, extension: split ? split[2]! : null };
}

/** parsePhone's E.164 number, without the extension; null when not dialable. */
export function toE164(text: string): string | null {
  return parsePhone(text)?.e164 ?? null;
}

/**
 * Whitespace (`\s`, Unicode separators) and invisible format characters (zero-width
 * space, BOM, bidi marks: Unicode category Cf). A value made only of these is blank.
 */
const INVISIBLE = '[\\s\\p{Z}\\p{Cf}]';
const EDGES = new RegExp(`^${INVISIBLE}+|${INVISIBLE}+$`, 'gu');

/** `text` without the whitespace and invisible characters at either end. */
export function trimInvisible(text: string): string {
  return text.replace(EDGES, '');
}

/**
 * A ZIP sent as a JSON number: lead exports (spreadsheets) drop leading zeros, so
 * an integer of up to 5 digits is zero-padded to 5 (7030 → "07030") and one of 8
 * digits to a 9-digit ZIP+4 (70301234 → "070301234"). Anything else becomes its
 * decimal string, which the ZIP format then judges.
 */
export function zipFromNumber(value: number): string {
  const text = String(value);
  if (!Number.isSafeInteger(value) || value < 0) return text;
  if (text.length <= 5) return text.padStart(5, '0');
  if (text.length === 8) return text.padStart(9, '0');
  return text;
}

export function isUsState(text: string): boolean {
  return US_STATE_CODES.has(text.toUpperCase());
}

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;

/** ZIP or ZIP+4 (with or without the dash) → "12345" or "12345-6789"; else null. */
export function normalizeZip(text: string): string | null {
  const match = ZIP.exec(text);
  if (!match) return null;
  return match[2] ? `${match[1]}-${match[2]}` : (match[1] ?? null);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * YYYY-MM-DD or MM/DD/YYYY → YYYY-MM-DD when it is a real calendar date strictly
 * before `today` (UTC) and not before EARLIEST_BIRTH_YEAR; else null.
 */
export function toPastIsoDate(text: string, today: Date): string | null {
  let parts: [string, string, string] | undefined;
  const iso = ISO_DATE.exec(text);
  if (iso) parts = [iso[1]!, iso[2]!, iso[3]!];
  const us = iso ? null : US_DATE.exec(text);
  if (us) parts = [us[3]!, us[1]!, us[2]!];
  if (!parts) return null;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 02/30 over to March: a real date survives the round trip.
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    year < EARLIEST_BIRTH_YEAR
  )
    return null;
  const startOfToday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (date.getTime() >= startOfToday) return null;
  return date.toISOString().slice(0, 10);
}

/** An absolute http: or https: URL with a host. */
export function isHttpUrl(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
