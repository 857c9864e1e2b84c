/**
 * The replies that revoke consent (docs/api.md, "Opt-out replies"): kept as data,
 * each keyword with where it comes from, so the list can be reviewed against its
 * sources.
 */

export interface StopKeyword {
  /** As the lead would write it; matched case and punctuation insensitive. */
  readonly keyword: string;
  readonly source: string;
}

const FCC =
  'FCC 24-24, 47 CFR 64.1200(a)(10): "stop", "quit", "end", "revoke", "opt out", "cancel", "unsubscribe"';
const CTIA = 'CTIA Messaging Principles and Best Practices: STOPALL (industry opt-out keyword)';
const SPANISH = 'Spanish opt-out keywords carriers honour (parar, alto, baja)';

export const STOP_KEYWORDS: readonly StopKeyword[] = Object.freeze([
  { keyword: 'stop', source: FCC },
  { keyword: 'quit', source: FCC },
  { keyword: 'end', source: FCC },
  { keyword: 'revoke', source: FCC },
  { keyword: 'opt out', source: FCC },
  { keyword: 'cancel', source: FCC },
  { keyword: 'unsubscribe', source: FCC },
  { keyword: 'stopall', source: CTIA },
  { keyword: 'parar', source: SPANISH },
  { keyword: 'alto', source: SPANISH },
  { keyword: 'baja', source: SPANISH },
]);

/**
 * Words that may come before or after a keyword without changing what the reply
 * means ("STOP please", "por favor, baja"). Anything else makes the reply an
 * ordinary one ("stop by tomorrow?"): the rule is conservative, a reply that is
 * not plainly an opt-out is left to a person.
 */
export const COURTESY_WORDS: ReadonlySet<string> = new Set([
  'please',
  'pls',
  'plz',
  'thanks',
  'thank',
  'you',
  'thx',
  'now',
  'por',
  'favor',
  'gracias',
]);

/** Lower case, every run of non-letters one space, trimmed: "Opt-Out!" → "opt out". */
export function normalizeReply(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Each keyword as a list of words; "opt out" is also accepted written as one word. */
const KEYWORD_WORDS: readonly (readonly string[])[] = STOP_KEYWORDS.flatMap(({ keyword }) => {
  const words = keyword.split(' ');
  return words.length > 1 ? [words, [words.join('')]] : [words];
});

/**
 * A reply revokes consent when, once normalized (normalizeReply), it is made of
 * keywords and courtesy words only, with at least one keyword ("STOP",
 * "Stop please", "STOP STOP").
 */
export function isStopReply(text: string): boolean {
  const words = normalizeReply(text).split(' ').filter(Boolean);
  let keywords = 0;
  for (let at = 0; at < words.length; ) {
    const keyword = KEYWORD_WORDS.find((k) => k.every((w, i) => words[at + i] === w));
    if (keyword) {
      keywords += 1;
      at += keyword.length;
    } else if (COURTESY_WORDS.has(words[at] ?? '')) {
      at += 1;
    } else {
      return false;
    }
  }
  return keywords > 0;
}
