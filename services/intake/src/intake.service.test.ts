import { isId } from '@leadhook/db';
import { liveJob } from '@leadhook/queue';
import { randomPhone, useHarness, validLead, waitFor } from '@leadhook/testkit';
import request from 'supertest';
import { countRows, createHarness, FORM_HEADERS } from './testing/harness.js';

const h = useHarness(() => createHarness());

interface LeadRow {
  id: string;
  account_id: string;
  source_id: string;
  source_name: string;
  playbook_id: string;
  phone: string;
  email: string;
  fields: Record<string, string>;
  canonical: Record<string, string>;
  extra: Record<string, unknown>;
  external_id: string | null;
  tcpa_opt_in_token: string;
  tcpa_opt_in_url: string;
  consent_ip: string | null;
  consent_user_agent: string | null;
  received_at: Date;
}

describe('an accepted lead', () => {
  it('answers 201 and stores lead, submission and outbox row, then enqueues its enrollment', async () => {
    const source = await h.makeSource({ name: 'Acme Leads' });
    const phone = randomPhone();
    const before = Date.now();
    const res = await h.post(
      source,
      validLead({
        phone: phone.national,
        current_residence_state: 'tx',
        date_of_birth: '04/12/1985',
        gender: ' Female ',
        credit_rating: 'GOOD',
        external_id: 'v-88213',
        utm_source: 'google',
        score: 7,
      }),
      { 'User-Agent': 'SellerBot/1.0' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 'accepted', lead_id: expect.any(String) });
    const leadId: string = res.body.lead_id;
    expect(isId('lead', leadId)).toBe(true);

    const { rows } = await h.pool.query<LeadRow>('SELECT * FROM leads WHERE id = $1', [leadId]);
    const lead = rows[0]!;
    expect(lead).toMatchObject({
      account_id: source.accountId,
      source_id: source.sourceId,
      source_name: 'Acme Leads',
      playbook_id: source.playbookId,
      phone: phone.e164,
      email: 'jane.doe@example.com',
      external_id: 'v-88213',
      tcpa_opt_in_token: 'a1b2c3d4-e5f6-4789-abcd-ef0123456789',
      tcpa_opt_in_url: 'https://quotes.example.com/auto?step=consent',
      consent_user_agent: 'SellerBot/1.0',
      extra: { utm_source: 'google', score: 7 },
      canonical: { gender: 'female', marital_status: 'married', credit_rating: 'good' },
    });
    expect(lead.fields).toMatchObject({
      phone: phone.e164,
      current_residence_state: 'TX',
      date_of_birth: '1985-04-12',
      gender: ' Female ',
      credit_rating: 'GOOD',
    });
    expect(lead.consent_ip).toMatch(/127\.0\.0\.1|::1/);
    expect(lead.received_at.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(lead.received_at.getTime()).toBeLessThanOrEqual(Date.now());

    const submissions = await h.pool.query(
      'SELECT result, lead_id, external_id, source_id, user_agent FROM submissions WHERE lead_id = $1',
      [leadId],
    );
    expect(submissions.rows).toEqual([
      {
        result: 'accepted',
        lead_id: leadId,
        external_id: 'v-88213',
        source_id: source.sourceId,
        user_agent: 'SellerBot/1.0',
      },
    ]);
    const outbox = await h.pool.query(
      "SELECT topic, payload, done_at FROM outbox WHERE payload->>'lead_id' = $1",
      [leadId],
    );
    expect(outbox.rows).toEqual([
      { topic: 'enrollment', payload: { lead_id: leadId }, done_at: null },
    ]);

    const job = await waitFor(() =>
      liveJob(h.queues.get('enrollment'), 'enrollment', { lead_id: leadId }),
    );
    expect(job.data).toEqual({ lead_id: leadId });
  });

  it('accepts phone and zip as JSON numbers, and a form-urlencoded body', async () => {
    const source = await h.makeSource();
    const phone = randomPhone();
    const digits = Number(phone.e164.slice(2));
    const json = await h.post(source, validLead({ phone: digits, current_residence_zip: 78701 }));
    expect(json.status).toBe(201);

    const form = await h.post(
      source,
      new URLSearchParams(validLead() as Record<string, string>).toString(),
      FORM_HEADERS,
    );
    expect(form.status).toBe(201);
    expect(form.body.status).toBe('accepted');
  });
});

describe('a rejected lead', () => {
  it('answers 422 with every problem and records only the reasons, never the body', async () => {
    const source = await h.makeSource();
    const res = await h.post(
      source,
      validLead({
        email: 'not-an-email',
        phone: '12',
        first_name: ' ',
        current_residence_state: undefined,
        external_id: 'v-1',
      }),
      { 'User-Agent': 'SellerBot/1.0' },
    );
    expect(res.status).toBe(422);
    expect(res.body.status).toBe('rejected');
    expect(res.body.errors).toEqual([
      { field: 'first_name', code: 'required', message: expect.any(String) },
      { field: 'email', code: 'invalid', message: expect.any(String) },
      { field: 'phone', code: 'invalid', message: expect.any(String) },
      { field: 'current_residence_state', code: 'required', message: expect.any(String) },
    ]);
    const { rows } = await h.pool.query('SELECT * FROM submissions WHERE source_id = $1', [
      source.sourceId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      result: 'rejected',
      lead_id: null,
      // The seller's external_id and User-Agent are not kept of a rejection.
      external_id: null,
      user_agent: null,
      errors: [
        { field: 'first_name', code: 'required' },
        { field: 'email', code: 'invalid' },
        { field: 'phone', code: 'invalid' },
        { field: 'current_residence_state', code: 'required' },
      ],
    });
    expect(JSON.stringify(rows[0])).not.toContain('not-an-email');
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(0);
  });

  it('answers 422 too_many_fields beyond 50 extra fields', async () => {
    const source = await h.makeSource();
    const extras = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x${i}`, 'v']));
    const res = await h.post(source, validLead(extras));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'x50', code: 'too_many_fields', message: expect.any(String) },
    ]);
  });
});

describe('duplicates', () => {
  it('answers 200 with the first lead and records the attribution, without enrolling again', async () => {
    const first = await h.makeSource({ name: 'First vendor' });
    const second = await h.makeSource({ accountId: first.accountId, name: 'Second vendor' });
    const phone = randomPhone();
    const original = await h.post(first, validLead({ phone: phone.national }));
    expect(original.status).toBe(201);
    const leadId: string = original.body.lead_id;

    const dup = await h.post(
      second,
      validLead({ phone: phone.e164, first_name: 'Janet', external_id: 'aff-7' }),
    );
    expect(dup.status).toBe(200);
    expect(dup.body).toEqual({ status: 'duplicate', lead_id: leadId });

    expect(await countRows(h.pool, 'leads', 'phone = $1', [phone.e164])).toBe(1);
    expect(await countRows(h.pool, 'outbox', "payload->>'lead_id' = $1", [leadId])).toBe(1);
    const { rows } = await h.pool.query(
      'SELECT result, lead_id, external_id, source_id FROM submissions WHERE source_id = $1',
      [second.sourceId],
    );
    expect(rows).toEqual([
      { result: 'duplicate', lead_id: leadId, external_id: 'aff-7', source_id: second.sourceId },
    ]);
  });

  it('is per account: the same phone in another account is a new lead', async () => {
    const a = await h.makeSource();
    const b = await h.makeSource();
    const phone = randomPhone().national;
    expect((await h.post(a, validLead({ phone }))).status).toBe(201);
    expect((await h.post(b, validLead({ phone }))).status).toBe(201);
  });

  it('counts the window from the original acceptance, with the account override', async () => {
    const source = await h.makeSource();
    const phone = randomPhone().national;
    const first = await h.post(source, validLead({ phone }));
    const firstId: string = first.body.lead_id;
    await h.pool.query(`UPDATE leads SET created_at = now() - interval '31 days' WHERE id = $1`, [
      firstId,
    ]);
    // Outside the default 30 days: a new lead.
    const second = await h.post(source, validLead({ phone }));
    expect(second.status).toBe(201);
    expect(second.body.lead_id).not.toBe(firstId);

    const longWindow = await h.makeSource({ duplicateWindowDays: 60 });
    const phone2 = randomPhone().national;
    const old = await h.post(longWindow, validLead({ phone: phone2 }));
    await h.pool.query(`UPDATE leads SET created_at = now() - interval '31 days' WHERE id = $1`, [
      old.body.lead_id,
    ]);
    const again = await h.post(longWindow, validLead({ phone: phone2 }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'duplicate', lead_id: old.body.lead_id });
  });

  it('creates exactly one lead when the race spans several intake processes', async () => {
    // Each app has its own group-commit batchers, like separate processes: their
    // batches are concurrent transactions, so only the advisory lock orders them.
    const source = await h.makeSource();
    const body = validLead();
    const apps = Array.from({ length: 4 }, () => h.buildApp());
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        request(apps[i % apps.length]!)
          .post(source.path)
          .send(body),
      ),
    );
    expect(responses.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
    expect(responses.map((r) => r.status).filter((s) => s === 200)).toHaveLength(15);
    expect(new Set(responses.map((r) => r.body.lead_id)).size).toBe(1);
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(1);
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(16);
  });

  it('fails only the lead PostgreSQL refuses, not the others of its batch', async () => {
    const source = await h.makeSource();
    // A lead the validator passes but PostgreSQL refuses (a constraint the
    // intake cannot foresee), made with a trigger in this test's database.
    await h.pool.query(`
      CREATE OR REPLACE FUNCTION refuse_marked_lead() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by test trigger'; END $$;
      CREATE OR REPLACE TRIGGER refuse_marked_lead BEFORE INSERT ON leads
        FOR EACH ROW WHEN (NEW.first_name = 'RefuseMe') EXECUTE FUNCTION refuse_marked_lead();`);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.post(source, validLead(i === 4 ? { first_name: 'RefuseMe' } : {})),
      ),
    );
    await h.pool.query('DROP TRIGGER refuse_marked_lead ON leads');
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 201, 201, 500]);
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(7);
  });

  it('creates exactly one lead when ten identical submissions race', async () => {
    const source = await h.makeSource();
    const body = validLead();
    const responses = await Promise.all(Array.from({ length: 10 }, () => h.post(source, body)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const leadIds = new Set(responses.map((r) => r.body.lead_id));
    expect(leadIds.size).toBe(1);
    expect(await countRows(h.pool, 'leads', 'source_id = $1', [source.sourceId])).toBe(1);
    expect(await countRows(h.pool, 'submissions', 'source_id = $1', [source.sourceId])).toBe(10);
    expect(await countRows(h.pool, 'outbox', "payload->>'lead_id' = $1", [[...leadIds][0]])).toBe(
      1,
    );
  });
});
