import { charsetOf, isUtf8ContentType, jsonTextProblem, MAX_JSON_DEPTH } from './json-text.js';

/** `depth` objects nested in each other, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 1; i < depth; i++) value = { a: value };
  return { a: value };
}

describe('jsonTextProblem', () => {
  it('finds NUL and unpaired surrogates in values and names, with where', () => {
    expect(jsonTextProblem({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual({
      path: ['a', 1, 'c'],
      kind: 'unstorable_text',
    });
    expect(jsonTextProblem({ a: { 'b\ud800': 1 } })).toEqual({
      path: ['a', 'b\ud800'],
      kind: 'unstorable_text',
    });
    expect(jsonTextProblem({ a: '\udc00 alone' })?.kind).toBe('unstorable_text');
    // A surrogate pair (an emoji) and an RTL override are text like any other.
    expect(jsonTextProblem({ a: '😀 \u202e reversed' })).toBeNull();
  });

  it(`refuses more than ${MAX_JSON_DEPTH} levels, without recursing, however deep`, () => {
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH + 1))).toEqual({
      path: Array(MAX_JSON_DEPTH).fill('a'),
      kind: 'too_deep',
    });
    expect(jsonTextProblem(nested(200_000))?.kind).toBe('too_deep');
    const deepArray = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(jsonTextProblem(deepArray)?.kind).toBe('too_deep');
  });
});

describe('charsets', () => {
  it.each([
    [undefined, true],
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['application/json;charset=UTF-8', true],
    ['application/json; charset="utf-8"', true],
    ['application/json; charset=utf8', true],
    ['application/json; charset=UTF8', true],
    ['application/json; charset=utf-16', false],
    ['application/json; charset=utf-7', false],
    ['application/x-www-form-urlencoded; charset=iso-8859-1', false],
  ])('%s is UTF-8: %s', (type, utf8) => {
    expect(isUtf8ContentType(type)).toBe(utf8);
  });

  it('reads the charset parameter only', () => {
    expect(charsetOf('text/plain; format=flowed; Charset=Latin1')).toBe('latin1');
    expect(charsetOf('text/plain')).toBeNull();
  });
});
