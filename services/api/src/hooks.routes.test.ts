import {
  hookListSchema,
  hookSamplesSchema,
  hookWithSecretSchema,
  webhookPayloadSchema,
} from '@leadhook/contracts';
import { aLeadOwner, anActivity, useHarness } from '@leadhook/testkit';
import { startHarness } from './testing/harness.js';
import { createLead } from './testing/leads.factory.js';
import { bodyValidator } from './validation.js';

const isHookWithSecret = bodyValidator(hookWithSecretSchema);
const isHookList = bodyValidator(hookListSchema);
const isSamples = bodyValidator(hookSamplesSchema);
const isPayload = bodyValidator(webhookPayloadSchema);

const TARGET = 'https://hooks.zapier.example.com/hooks/standard/1/abc';

const h = useHarness(() => startHarness());

/**
 * Every key path of a JSON value ("a", "a.b", "list[].c"), except inside the
 * label-specific objects (`data`) and the seller's extra fields, whose keys
 * depend on the activity and the lead, not on how the body is built.
 */
function deepKeys(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => deepKeys(v, `${at}[]`)))];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = at ? `${at}.${k}` : k;
    return k === 'data' || k === 'lead_additional_info' ? [path] : [path, ...deepKeys(v, path)];
  });
}

/** The key set every webhook body has: the schema's required keys, nested (it is closed). */
function schemaKeys(schema: unknown, at = ''): string[] {
  const s = schema as { properties?: Record<string, unknown>; items?: unknown };
  if (s.items) return schemaKeys(s.items, `${at}[]`);
  return Object.entries(s.properties ?? {}).flatMap(([k, v]) => {
    const path = at ? `${at}.${k}` : k;
    return k === 'data' || k === 'lead_additional_info' ? [path] : [path, ...schemaKeys(v, path)];
  });
}

describe('REST hooks (docs/api.md, "REST hooks")', () => {
  it('subscribes (201 with its id), lists and unsubscribes (204, again 404)', async () => {
    const { api, playbookId } = await h.owner();
    const created = await api
      .post('/api/v1/hooks')
      .send({ target_url: TARGET, events: ['message_received'], outcomes: ['*'] });
    expect(created.status).toBe(201);
    expect(isHookWithSecret(created.body).ok).toBe(true);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      target_url: TARGET,
      events: ['message_received'],
      outcomes: ['*'],
      playbook_id: null,
      enabled: true,
    });
    const perPlaybook = await api
      .post('/api/v1/hooks')
      .send({ target_url: TARGET, events: ['*'], playbook_id: playbookId });
    expect(perPlaybook.status).toBe(201);
    expect(perPlaybook.body.playbook_id).toBe(playbookId);

    // A hook is a subscription: GET /subscriptions shows it, marked created_via hooks.
    const subscription = await api.get(`/api/v1/subscriptions/${created.body.id}`);
    expect(subscription.body).toMatchObject({ url: TARGET, created_via: 'hooks' });
    // An ordinary subscription is not a hook: /hooks neither lists nor deletes it.
    const ordinary = await api.post('/api/v1/subscriptions').send({ url: TARGET, events: ['*'] });
    expect(ordinary.body.created_via).toBe('api');

    const listed = await api.get('/api/v1/hooks?limit=1');
    expect(isHookList(listed.body).ok).toBe(true);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([perPlaybook.body.id]);
    const next = await api.get(`/api/v1/hooks?limit=1&cursor=${listed.body.next_cursor}`);
    expect(next.body).toEqual({
      data: [expect.objectContaining({ id: created.body.id })],
      next_cursor: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    expect((await api.delete(`/api/v1/hooks/${ordinary.body.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/hooks/${created.body.id}`)).status).toBe(204);
    expect((await api.delete(`/api/v1/hooks/${created.body.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/subscriptions/${created.body.id}`)).status).toBe(404);
    const after = await api.get('/api/v1/hooks');
    expect(after.body.data.map((x: { id: string }) => x.id)).toEqual([perPlaybook.body.id]);
  });

  it('holds a hook to the rules of subscriptions (422), and an unknown playbook_id too', async () => {
    const { api } = await h.owner();
    const cases: [Record<string, unknown>, string | null, string][] = [
      [{ target_url: TARGET, events: ['nope'] }, 'events[0]', 'unknown_label'],
      [{ target_url: TARGET }, null, 'no_labels'],
      [{ target_url: TARGET, events: ['*', 'started'] }, 'events', 'invalid'],
      [{ target_url: 'http://127.0.0.1/x', events: ['*'] }, 'target_url', 'private_target'],
      [{ target_url: 'ftp://x.example.com', events: ['*'] }, 'target_url', 'invalid'],
      [{ events: ['*'] }, 'target_url', 'required'],
      [
        { target_url: TARGET, events: ['*'], playbook_id: 'pb_00000000000000000000000000' },
        'playbook_id',
        'not_found',
      ],
    ];
    for (const [body, field, code] of cases) {
      const res = await api.post('/api/v1/hooks').send(body);
      expect([res.status, res.body.error?.code]).toEqual([422, 'validation_failed']);
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, code }));
    }
    expect((await api.get('/api/v1/hooks')).body.data).toEqual([]);
  });

  describe('GET /hooks/samples', () => {
    it('answers one synthetic body shaped as every delivery when the account has none', async () => {
      const { api } = await h.owner();
      const res = await api.get('/api/v1/hooks/samples?label=message_received');
      expect(res.status).toBe(200);
      expect(isSamples(res.body).ok).toBe(true);
      expect(res.body.data).toHaveLength(1);
      const [sample] = res.body.data;
      expect(isPayload(sample)).toEqual({ ok: true, value: sample });
      expect(sample).toMatchObject({ activity_type: 'event', activity_label: 'message_received' });
      expect(deepKeys(sample).sort()).toEqual(schemaKeys(webhookPayloadSchema).sort());
      // `interested` is an event and an outcome: type picks one.
      const outcome = await api.get('/api/v1/hooks/samples?label=interested&type=outcome');
      expect(outcome.body.data[0]).toMatchObject({ activity_type: 'outcome' });
    });

    it("answers the account's latest real activities of the label, newest first, at most 3", async () => {
      const owner = await aLeadOwner(h.prisma, { playbook: 'Quotes', source: 'Acme' });
      const leadId = await createLead(h.prisma, owner, {
        externalId: 'X-9',
        extra: { campaign: 'spring' },
      });
      const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));
      const ids: string[] = [];
      for (const minutes of [1, 2, 3, 4]) {
        ids.push(
          (
            await anActivity(h.prisma, {
              accountId: owner.accountId,
              leadId,
              label: 'message_received',
              occurredAt: at(minutes),
            })
          ).id,
        );
      }
      await anActivity(h.prisma, { accountId: owner.accountId, leadId, label: 'started' });
      // Another account's activities never show.
      const other = await aLeadOwner(h.prisma);
      await anActivity(h.prisma, {
        accountId: other.accountId,
        leadId: await createLead(h.prisma, other),
        label: 'message_received',
      });
      const res = await h.as(owner.apiKey).get('/api/v1/hooks/samples?label=message_received');
      expect(res.status).toBe(200);
      expect(res.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(1).reverse());
      for (const sample of res.body.data) {
        expect(isPayload(sample).ok).toBe(true);
        expect(deepKeys(sample).sort()).toEqual(schemaKeys(webhookPayloadSchema).sort());
      }
      expect(res.body.data[0]).toMatchObject({
        lead_id: leadId,
        marketing_source: { id: owner.sourceId, name: 'Acme' },
        playbook: { id: owner.playbookId, name: 'Quotes' },
        lead_originators: [
          { origin: 'leadhook', key: leadId },
          { origin: 'Acme', key: 'X-9' },
        ],
        lead_additional_info: { campaign: 'spring' },
      });
    });

    it('is documented with label required and type optional', async () => {
      const doc = (await h.anonymous.get('/api/v1/openapi.json')).body;
      const params = doc.paths['/hooks/samples'].get.parameters as {
        name: string;
        required: boolean;
      }[];
      expect(params.map((p) => [p.name, p.required])).toEqual([
        ['label', true],
        ['type', false],
      ]);
    });

    it('refuses an unknown label, a label of the other type, and none, with 422', async () => {
      const { api } = await h.owner();
      for (const query of ['label=nope', 'label=started&type=outcome', '', 'label=test']) {
        const res = await api.get(`/api/v1/hooks/samples?${query}`);
        expect([res.status, res.body.error?.code]).toEqual([422, 'validation_failed']);
        expect(res.body.error.details[0].field).toBe('label');
      }
    });
  });
});
