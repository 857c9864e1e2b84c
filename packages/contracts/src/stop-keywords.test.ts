import { isStopReply, normalizeReply, REVOCATION_PHRASES, STOP_KEYWORDS } from './stop-keywords.js';

/** Each keyword as a lead might write it: case, punctuation, spacing, words around it. */
function variants(keyword: string): string[] {
  const upper = keyword.toUpperCase();
  const title = keyword.charAt(0).toUpperCase() + keyword.slice(1);
  return [
    keyword,
    upper,
    title,
    ` ${keyword} `,
    `${upper}!`,
    `${keyword}.`,
    `"${keyword}"`,
    `${upper}!!!`,
    `${keyword} please`,
    `Please ${keyword}`,
    `${upper}, thank you.`,
    `${keyword} now`,
    `${keyword} por favor`,
    `${upper} ${upper}`,
    `${title} texting me`,
    `I said ${keyword}!`,
    `ok ${keyword}, wrong person`,
  ];
}

describe('opt-out replies', () => {
  it('every keyword has a source', () => {
    for (const { keyword, source } of STOP_KEYWORDS) {
      expect(keyword).toBe(normalizeReply(keyword));
      expect(source.length).toBeGreaterThan(0);
    }
    expect(STOP_KEYWORDS.map((k) => k.keyword)).toEqual([
      'stop',
      'quit',
      'end',
      'revoke',
      'opt out',
      'cancel',
      'unsubscribe',
      'stopall',
      'parar',
      'alto',
      'baja',
    ]);
  });

  it.each(
    STOP_KEYWORDS.flatMap(({ keyword }) => variants(keyword).map((reply) => [keyword, reply])),
  )('%s: %j revokes consent', (_keyword, reply) => {
    expect(isStopReply(reply)).toBe(true);
  });

  it.each(['OPT-OUT', 'optout', 'Opt Out!', 'opt_out'])('%j is "opt out"', (reply) => {
    expect(isStopReply(reply)).toBe(true);
  });

  it.each(
    REVOCATION_PHRASES.flatMap(({ keyword }) => [
      [keyword, keyword],
      [keyword, `Please ${keyword.toUpperCase()}!`],
      [keyword, `${keyword} anymore, thanks`],
    ]),
  )('%s: %j revokes consent', (_phrase, reply) => {
    expect(isStopReply(reply)).toBe(true);
  });

  // Documented (docs/api.md, "Opt-out replies"): a keyword anywhere opts out,
  // even where a person might read the reply otherwise.
  it.each([
    'stop by tomorrow?',
    "Don't stop",
    'Can you stop calling after 5?',
    'the end',
    'cancel my 3pm appointment',
    'quit my job last week, still interested',
    'alto de precios',
    'stop 2',
    "Don't text me",
    'No más mensajes',
  ])('%j revokes consent', (reply) => {
    expect(isStopReply(reply)).toBe(true);
  });

  it.each([
    'Yes',
    'interested',
    'please call me',
    'call me at 5',
    'thank you',
    '',
    '   ',
    'stopping',
    'unsubscribed already?',
    'nomás quería saber el precio',
    'remove the second car from the quote',
    'send more texts',
    'backend',
    'Stopwatch',
  ])('%j is an ordinary reply', (reply) => {
    expect(isStopReply(reply)).toBe(false);
  });
});
