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
 * Phrases with no keyword that a reasonable person still reads as "stop
 * contacting me". The FCC rule makes the keywords a revocation per se and says a
 * revocation by any other reasonable means must be honoured too; these are the
 * common ones. Written as normalizeReply writes them ("don't" is "don t").
 */
const REASONABLE = 'FCC 24-24, 47 CFR 64.1200(a)(10): revocation "by any reasonable means"';

export const REVOCATION_PHRASES: readonly StopKeyword[] = Object.freeze([
  { keyword: 'remove me', source: REASONABLE },
  { keyword: 'take me off', source: REASONABLE },
  { keyword: 'do not text', source: REASONABLE },
  { keyword: 'do not call', source: REASONABLE },
  { keyword: 'do not contact', source: REASONABLE },
  { keyword: 'don t text', source: REASONABLE },
  { keyword: 'don t call', source: REASONABLE },
  { keyword: 'don t contact', source: REASONABLE },
  { keyword: 'dont text', source: REASONABLE },
  { keyword: 'dont call', source: REASONABLE },
  { keyword: 'dont contact', source: REASONABLE },
  { keyword: 'no more texts', source: REASONABLE },
  { keyword: 'no more calls', source: REASONABLE },
  { keyword: 'no more messages', source: REASONABLE },
  { keyword: 'leave me alone', source: REASONABLE },
  { keyword: 'no mas', source: SPANISH },
  { keyword: 'no más', source: SPANISH },
]);

/** Lower case, every run of non-letters one space, trimmed: "Opt-Out!" → "opt out". */
export function normalizeReply(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Every keyword and phrase as a list of words; the keyword "opt out" is also
 * accepted written as one word ("optout", and so "OPT-OUT" or "opt_out").
 */
const REVOKING_WORDS: readonly (readonly string[])[] = [
  ...STOP_KEYWORDS.flatMap(({ keyword }) => {
    const words = keyword.split(' ');
    return words.length > 1 ? [words, [words.join('')]] : [words];
  }),
  ...REVOCATION_PHRASES.map(({ keyword }) => keyword.split(' ')),
];

/**
 * A reply revokes consent when, once normalized (normalizeReply), it contains a
 * keyword or a revocation phrase as whole words, anywhere: "STOP", "Stop
 * texting me", "please remove me from your list", "no más". The rule errs on
 * the side of the person: "stop by tomorrow?" opts out too. A wrong opt-out
 * costs one lead and can be undone for the phone's future leads (DELETE
 * /suppressions/{phone}); a missed one is a text to a person who revoked
 * consent. "stopping" and "unsubscribed" are other words and do not count.
 */
export function isStopReply(text: string): boolean {
  const words = normalizeReply(text).split(' ').filter(Boolean);
  return words.some((_, at) =>
    REVOKING_WORDS.some((phrase) => phrase.every((w, i) => words[at + i] === w)),
  );
}
