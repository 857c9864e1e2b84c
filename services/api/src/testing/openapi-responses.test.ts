import { documentPart, intakeOpenApi } from '@leadhook/testkit';
import { buildOpenApiDocument, INTAKE_PATH } from '../openapi.js';
import { documentedPath, type ObservedResponse, responseProblems } from './openapi-responses.js';

/**
 * The check every api test runs on every answer (harness.ts): these cases show
 * it fails where an answer departs from the document, so a green api suite means
 * the answers were really compared.
 */

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    text: JSON.stringify(body),
    body,
  }) satisfies ObservedResponse;

const error = (code: string) => ({ error: { code, message: 'm', details: [] } });
const playbook = {
  id: 'pb_01jdq3v3m5a8f0k2x9b7c6d4e1',
  name: 'Auto quotes',
  steps: [{ type: 'sms', delay_seconds: 0, template: 'Hi' }],
  created_at: '2026-11-22T15:04:05.123Z',
  updated_at: '2026-11-22T15:04:05.123Z',
};

describe('documentedPath', () => {
  it('maps request URLs to path templates, query strings aside', () => {
    expect(documentedPath('/api/v1/playbooks?limit=2')).toBe('/playbooks');
    expect(documentedPath('/api/v1/playbooks/pb_1')).toBe('/playbooks/{id}');
    expect(documentedPath('/api/v1/account/api_keys/rotate')).toBe('/account/api_keys/rotate');
    expect(documentedPath('/api/v1/marketing_sources/src_1/stats?from=2026-01-01')).toBe(
      '/marketing_sources/{id}/stats',
    );
    expect(documentedPath('/api/v1/playbooks/pb_1/extra')).toBeUndefined();
    expect(documentedPath('/healthz')).toBeUndefined();
  });

  it('maps the intake endpoint at its own server’s root, not under /api/v1', () => {
    expect(documentedPath('/marketing_sources/acc_1/k3y')).toBe(
      '/marketing_sources/{account_id}/{source_key}',
    );
    expect(documentedPath('/api/v1/marketing_sources/acc_1/k3y')).toBeUndefined();
    expect(documentedPath('/marketing_sources/acc_1')).toBeUndefined();
  });
});

describe('responseProblems', () => {
  it('accepts an answer that fits its documented response', () => {
    expect(responseProblems('get', '/api/v1/playbooks/pb_1', json(200, playbook))).toEqual([]);
    expect(
      responseProblems('get', '/api/v1/playbooks/pb_1', json(404, error('not_found'))),
    ).toEqual([]);
    expect(
      responseProblems('delete', '/api/v1/playbooks/pb_1', { status: 204, headers: {}, text: '' }),
    ).toEqual([]);
  });

  it('refuses an undocumented path, method or status', () => {
    expect(responseProblems('get', '/api/v1/nowhere', json(200, {}))).toEqual([
      expect.stringContaining('not a documented path'),
    ]);
    expect(responseProblems('put', '/api/v1/account', json(200, {}))).toEqual([
      expect.stringContaining('not a documented operation'),
    ]);
    expect(responseProblems('get', '/api/v1/playbooks/pb_1', json(409, error('x')))).toEqual([
      expect.stringContaining('answered 409, not a documented status'),
    ]);
    expect(responseProblems('get', '/api/v1/account', json(500, error('internal_error')))).toEqual([
      expect.stringContaining('not a documented status'),
    ]);
  });

  it('refuses a body that is not the documented schema', () => {
    const { name: _name, ...nameless } = playbook;
    expect(responseProblems('get', '/api/v1/playbooks/pb_1', json(200, nameless))).toEqual([
      expect.stringMatching(/not a Playbook: .*name/),
    ]);
    expect(
      responseProblems('get', '/api/v1/playbooks/pb_1', json(200, { ...playbook, extra: 1 })),
    ).toEqual([expect.stringContaining('not a Playbook')]);
    expect(responseProblems('get', '/api/v1/playbooks/pb_1', json(404, { error: 'x' }))).toEqual([
      expect.stringContaining('not a Error'),
    ]);
  });

  it('refuses another content type, a body where none is documented, a missing required header', () => {
    const html = { status: 200, headers: { 'content-type': 'text/html' }, text: '<p>', body: {} };
    expect(responseProblems('get', '/api/v1/playbooks/pb_1', html)).toEqual([
      expect.stringContaining('as text/html'),
    ]);
    const noContent = { status: 204, headers: {}, text: '{}' };
    expect(responseProblems('delete', '/api/v1/playbooks/pb_1', noContent)).toEqual([
      expect.stringContaining('documents none'),
    ]);
    expect(responseProblems('get', '/api/v1/account', json(401, error('unauthorized')))).toEqual([
      expect.stringContaining('required header WWW-Authenticate'),
    ]);
    expect(
      responseProblems(
        'get',
        '/api/v1/account',
        json(401, error('unauthorized'), { 'www-authenticate': 'Bearer' }),
      ),
    ).toEqual([]);
  });

  it('checks the intake’s answers: its bodies, its redirect and its Location', () => {
    const intake = '/marketing_sources/acc_1/k3y';
    expect(
      responseProblems('post', intake, json(201, { status: 'accepted', lead_id: 'lead_1' })),
    ).toEqual([]);
    expect(responseProblems('post', intake, json(201, { status: 'accepted' }))).toEqual([
      expect.stringContaining('not a IntakeAccepted'),
    ]);
    const seeOther = (headers: Record<string, string>) => ({
      status: 303,
      headers,
      text: 'See Other. Redirecting to https://seller.example/thanks',
    });
    expect(
      responseProblems('post', intake, seeOther({ location: 'https://seller.example/thanks' })),
    ).toEqual([]);
    expect(responseProblems('post', intake, seeOther({}))).toEqual([
      expect.stringContaining('required header Location'),
    ]);
    // GET on a post URL is documented: its 200 is the HTML page, not JSON.
    expect(responseProblems('get', intake, json(200, {}))).toEqual([
      expect.stringContaining('answered 200 as application/json, not text/html'),
    ]);
    expect(responseProblems('put', intake, json(200, {}))).toEqual([
      expect.stringContaining('not a documented operation'),
    ]);
  });
});

describe("intake's view of its documentation", () => {
  it('is the served document’s intake part', () => {
    // Intake's tests check every answer against the testkit's build of it.
    const intakeBaseUrl = 'https://intake.example.test';
    const served = documentPart(buildOpenApiDocument({ intakeBaseUrl }), [INTAKE_PATH]) as {
      paths: object;
      components: object;
    };
    const { document, path } = intakeOpenApi(intakeBaseUrl);
    expect(path).toBe(INTAKE_PATH);
    expect(document).toMatchObject({ paths: served.paths, components: served.components });
    expect(Object.keys((document as { paths: object }).paths)).toEqual([INTAKE_PATH]);
  });
});
