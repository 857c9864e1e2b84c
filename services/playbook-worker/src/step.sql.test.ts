import { newId } from '@leadhook/db';
import { addPastHistoryPartitions, rowsRead, useHarness } from '@leadhook/testkit';
import pg from 'pg';
import { Harness } from './testing/harness.js';

// The playbook worker's step transitions (playbook_step_claim and
// playbook_step_defer, prisma/functions/playbook/) on their
// own, with no worker running.

const h = useHarness(async () => {
  const harness = await Harness.create();
  // The keyed reads below, with a year of monthly history partitions present.
  await addPastHistoryPartitions(harness.pool);
  return harness;
});

type Source = { playbookId: string; sourceId: string };

/**
 * `n` leads of the source, each with a play: an active one at step 0, due an hour
 * ago, or a finished one. Written in one statement; the plays' ids.
 */
async function plays(
  source: Source,
  n: number,
  status: 'active' | 'completed' | 'stopped',
): Promise<string[]> {
  const { rows } = await h.pool.query<{ id: string }>(
    `WITH l AS (
       INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                          first_name, last_name, fields, canonical, tcpa_opt_in_token,
                          tcpa_opt_in_url, received_at)
       SELECT leadhook_new_id('lead'), $1, $2, 'Acme Leads', $3, '+14155550100', 'ana@example.com',
              'Ana', 'Ruiz', '{}', '{}', 't', 'https://example.com/consent', now()
         FROM generate_series(1, $4::int)
       RETURNING id)
     INSERT INTO enrollments (id, lead_id, playbook_id, status, current_step, next_run_at)
     SELECT leadhook_new_id('play'), l.id, $3, $5,
            CASE WHEN $5 = 'active' THEN 0 ELSE 1 END,
            CASE WHEN $5 = 'active' THEN now() - interval '1 hour' END
       FROM l
     RETURNING id`,
    [h.accountId, source.sourceId, source.playbookId, n, status],
  );
  return rows.map((r) => r.id);
}

/** As runStep claims a step: the next one due in a minute, due now give or take a second. */
async function claim(client: pg.Client, enrollmentId: string, step = 0) {
  const { rows } = await client.query<{
    r_lead_id: string;
    r_sms_sent: boolean;
    r_do_not_contact: boolean;
  }>(
    `SELECT * FROM playbook_step_claim($1, $2, now() + interval '1 minute', now() + interval '1 second')`,
    [enrollmentId, step],
  );
  return rows;
}

/** As runStep defers a step outside the contact window: until an hour from now. */
async function defer(client: pg.Client, enrollmentId: string, step = 0) {
  const { rows } = await client.query<{ r_label: string }>(
    `SELECT r_label FROM playbook_step_defer($1, $2, now() + interval '1 hour', 'Deferred.',
                                            '{}'::jsonb, $3::text[])`,
    [enrollmentId, step, [newId('activity')]],
  );
  return rows;
}

describe('the step transitions', () => {
  it('claims and deferrals read their play by key, also once the active plays outgrow the statistics', async () => {
    // Statistics taken while (almost) no play is active (a long history of finished
    // plays, a quiet moment) make enrollments_status_next_run_at_idx look cheaper
    // than the primary key for "this play, if active": every claim then read the
    // whole due backlog and every deferral every active play, so an enrollment
    // burst cost quadratic time until the next analyze
    // (prisma/functions/playbook/playbook_step_claim.sql).
    const source = await h.playbook([
      { type: 'sms', delay_seconds: 0, template: 'Hi' },
      { type: 'sms', delay_seconds: 60, template: 'Again' },
    ]);
    // This file's database only: no autovacuum analyze while the burst grows.
    await h.pool.query('ALTER TABLE enrollments SET (autovacuum_enabled = false)');
    await plays(source, 20_000, 'completed');
    await h.pool.query('ANALYZE enrollments');
    const completed = await plays(source, 1, 'completed');
    const stopped = await plays(source, 1, 'stopped');
    // Due and at the step asked for: only their status keeps them from being claimed.
    await h.pool.query(
      `UPDATE enrollments SET next_run_at = now() - interval '1 hour' WHERE id = ANY ($1)`,
      [[...completed, ...stopped]],
    );
    const warm = await plays(source, 12, 'active');
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      // Enough calls of each function for the session to keep generic plans.
      for (const id of warm.slice(0, 6)) {
        expect(await claim(client, id)).toEqual([
          { r_lead_id: expect.any(String), r_sms_sent: false, r_do_not_contact: false },
        ]);
      }
      for (const id of warm.slice(6)) {
        expect(await defer(client, id)).toEqual([{ r_label: 'contact_deferred' }]);
      }
      const burst = await plays(source, 20_000, 'active');
      await client.query('BEGIN');
      for (const id of burst.slice(0, 3)) {
        expect(await claim(client, id)).toEqual([
          { r_lead_id: expect.any(String), r_sms_sent: false, r_do_not_contact: false },
        ]);
      }
      for (const id of burst.slice(3, 6)) {
        expect(await defer(client, id)).toEqual([{ r_label: 'contact_deferred' }]);
      }
      // A finished play, or one at another step, is neither claimed nor deferred.
      for (const id of [completed[0], stopped[0]]) {
        if (id === undefined) throw new Error('no play');
        expect(await claim(client, id, 1)).toEqual([]);
        expect(await defer(client, id, 1)).toEqual([]);
      }
      expect(await claim(client, burst[0] ?? '', 0)).toEqual([]);
      expect(await defer(client, burst[6] ?? '', 1)).toEqual([]);
      expect(await rowsRead(client, 'enrollments')).toBeLessThan(200);
      const { rows: byStatus } = await client.query<{ n: string }>(
        `SELECT pg_stat_get_xact_tuples_returned('enrollments_status_next_run_at_idx'::regclass)::text AS n`,
      );
      expect(byStatus).toEqual([{ n: '0' }]);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it("the play states the claim and deferral spell out are the table's only ones", async () => {
    // Both say "active" as "neither completed nor stopped"
    // (prisma/functions/playbook/), the same rows only while these three are all there are: a
    // new state must be added to those statements too.
    const { rows } = await h.pool.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'enrollments'::regclass AND contype = 'c' AND conname LIKE '%status%'`,
    );
    expect(rows).toEqual([
      { def: "CHECK ((status = ANY (ARRAY['active'::text, 'completed'::text, 'stopped'::text])))" },
    ]);
  });
});
