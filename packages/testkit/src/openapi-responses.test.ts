import { documentPart, responseChecker } from './openapi-responses.js';

/**
 * The generic parts of the check; the api's tests (services/api/src/testing)
 * run it against the served document.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const document = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        responses: { '200': { description: 'A thing', content: json('Thing') } },
      },
    },
    '/other': {
      get: {
        operationId: 'getOther',
        responses: { '200': { description: 'Other', content: json('Other') } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'part'],
        properties: { id: { type: 'string' }, part: ref('Part') },
      },
      Part: { type: 'object', properties: { name: { type: 'string' } } },
      Other: { type: 'string' },
    },
  },
};

describe('documentPart', () => {
  it('keeps the paths asked for and every schema they reach, through other schemas too', () => {
    const part = documentPart(document, ['/things/{id}']) as typeof document;
    expect(Object.keys(part.paths)).toEqual(['/things/{id}']);
    expect(Object.keys(part.components.schemas)).toEqual(['Part', 'Thing']);
    expect(part.openapi).toBe('3.1.0');
  });
});

describe('responseChecker', () => {
  const answer = (body: unknown) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
  });

  it('matches paths under the base path, and at the root without one', () => {
    const under = responseChecker({ document, basePath: '/v1' });
    expect(under.documentedPath('/v1/things/t1')).toBe('/things/{id}');
    expect(under.documentedPath('/things/t1')).toBeUndefined();
    const atRoot = responseChecker({ document: () => document });
    expect(atRoot.documentedPath('/things/t1?x=1')).toBe('/things/{id}');
  });

  it('fails an answer whose body is not the documented schema', () => {
    const { responseProblems, expectDocumentedResponse } = responseChecker({ document });
    expect(responseProblems('get', '/other', answer('fine'))).toEqual([]);
    expect(responseProblems('get', '/other', answer(5))).toEqual([
      'GET /other (getOther) answered 200 with a body that is not a Other: (body) must be string',
    ]);
    expect(() => expectDocumentedResponse('post', '/other', answer('x'))).toThrow(
      'POST /other is not a documented operation',
    );
  });
});
