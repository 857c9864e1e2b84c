/**
 * Finds secrets and personal values in process output, in every spelling we
 * could think of they might take there: raw, lower-cased, URL-decoded (form and
 * query encoding), JSON-unescaped (\u0040), a phone's digits with any punctuation
 * between them (national, E.164, dotted, spaced, encoded), an email or its local
 * part, and any 16-character piece of a secret (a truncated secret still leaks).
 */

export interface LeakTargets {
  /** label → value; found by any 16-character piece, any case. */
  secrets: ReadonlyMap<string, string>;
  emails: readonly string[];
  phones: readonly string[];
  /** Other personal values (names, street), found in any case. */
  personal: readonly { label: string; value: string }[];
}

/** The output in every spelling a value could take there. */
function spellings(output: string): string[] {
  const urlDecoded = output
    .replace(/\+/g, ' ')
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const jsonUnescaped = output.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return [output, urlDecoded, jsonUnescaped].flatMap((text) => [text, text.toLowerCase()]);
}

/** The national number's digits with up to four non-digits between each (any notation, E.164 too). */
function phonePattern(phone: string): RegExp {
  const digits = phone.replace(/\D/g, '').slice(-10);
  return new RegExp(digits.split('').join('\\D{0,4}'));
}

/** Every 16-character piece of a secret. */
function pieces(secret: string): string[] {
  if (secret.length <= 16) return [secret];
  return Array.from({ length: secret.length - 15 }, (_, i) => secret.slice(i, i + 16));
}

/** What of `targets` appears in `output`, one description per value found; [] when none. */
export function leaksIn(output: string, targets: LeakTargets): string[] {
  const texts = spellings(output);
  const found: string[] = [];
  const has = (needle: string) => texts.some((t) => t.includes(needle));
  for (const [label, secret] of targets.secrets) {
    const piece = pieces(secret).find((p) => has(p) || has(p.toLowerCase()));
    if (piece) found.push(`${label} (${piece})`);
  }
  for (const email of targets.emails) {
    const lower = email.toLowerCase();
    if (has(lower)) found.push(`email ${email}`);
    else if (has(lower.split('@')[0] ?? lower)) found.push(`email local part of ${email}`);
  }
  for (const phone of targets.phones) {
    const pattern = phonePattern(phone);
    if (texts.some((t) => pattern.test(t))) found.push(`phone ${phone}`);
  }
  for (const { label, value } of targets.personal) {
    if (has(value.toLowerCase())) found.push(`${label} ${value}`);
  }
  return found;
}
