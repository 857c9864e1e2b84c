import pg from 'pg';
import { idFloor } from './ids.js';
import { migrate } from './migrator.js';
import { MIGRATIONS_DIR } from './paths.js';
import { databaseUrl, migrationsBefore, withAdmin } from './testing/index.js';

/**
 * The migration that partitions the history tables by month of id
 * (docs/operations.md, "History partitions"): a database filled in the old layout, with
 * ids of every shape, keeps every row, each in the partition of its id's month,
 * and the keys and cascades it had.
 */

const CONVERSION = '20261127050900_history_partitioned';
const TABLES = ['submissions', 'activities', 'deliveries', 'attempts'] as const;

/** An id of `prefix` made at `at`, not the month's least. */
function idAt(prefix: string, at: Date, tail: string): string {
  return `${prefix}_${idFloor('account', at).slice(4, 14)}${tail.padStart(16, '0')}`;
}

function monthsAgo(months: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 15, 12));
}

function month(at: Date): string {
  return `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

const CASES = ['now', 'old', 'boundary', 'future', 'zero', 'max', 'legacy'] as const;

/** The ids of each table's rows: one per case, the same cases in every table. */
function idsOf(prefix: string): Record<(typeof CASES)[number], string> {
  const thisMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  return {
    now: idAt(prefix, new Date(), '1'),
    old: idAt(prefix, monthsAgo(14), '2'),
    // The least id of this month: the first of its partition, not the last of the previous.
    boundary: `${prefix}_${idFloor('account', thisMonth).slice(4)}`,
    future: idAt(prefix, new Date(Date.UTC(2040, 4, 3)), '3'),
    zero: `${prefix}_${'0'.repeat(26)}`,
    max: `${prefix}_7${'z'.repeat(25)}`,
    legacy: `${prefix}_legacy-1`,
  };
}

async function snapshot(client: pg.Client): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    out[table] = (await client.query(`SELECT to_jsonb(t) AS row FROM ${table} t ORDER BY id`)).rows;
  }
  return out;
}

describe('the history partitioning migration', () => {
  it('moves every row of the old layout into the partition of its id’s month', async () => {
    const name = `leadhook_t_${Math.floor(Date.now() / 1000)}_part${Math.random().toString(16).slice(2, 10)}`;
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    let open = false;
    try {
      await migrate({
        databaseUrl: databaseUrl(name),
        migrationsDir: migrationsBefore(CONVERSION),
      });
      await client.connect();
      open = true;
      await client.query(`
        INSERT INTO accounts (id, name) VALUES ('acc_p', 'partitions');
        INSERT INTO playbooks (id, account_id, name) VALUES ('pb_p', 'acc_p', 'p');
        INSERT INTO marketing_sources (id, account_id, playbook_id, name, source_type, intake_key)
        VALUES ('src_p', 'acc_p', 'pb_p', 'p', 'web_form', 'key_p');
        INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                           first_name, last_name, fields, canonical, tcpa_opt_in_token,
                           tcpa_opt_in_url, received_at)
        VALUES ('lead_p', 'acc_p', 'src_p', 'p', 'pb_p', '+15555550100', 'p@example.com', 'P',
                'Q', '{}', '{}', 't', 'https://example.com/optin', now());
        INSERT INTO subscriptions (id, account_id, url, secret)
        VALUES ('sub_p', 'acc_p', 'https://example.com/hook', 'whsec_p'),
               ('sub_q', 'acc_p', 'https://example.com/hook2', 'whsec_q');`);
      const subm = idsOf('subm');
      const act = idsOf('act');
      const dlv = idsOf('dlv');
      const att = idsOf('att');
      for (const k of CASES) {
        await client.query(
          `INSERT INTO submissions (id, account_id, source_id, result, lead_id, errors)
           VALUES ($1, 'acc_p', 'src_p', $2, 'lead_p', $3)`,
          [subm[k], k === 'old' ? 'rejected' : 'accepted', k === 'old' ? '[{"field":"x"}]' : null],
        );
        await client.query(
          `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note, data)
           VALUES ($1, 'acc_p', 'lead_p', $2, $3, 'n', '{"k":1}')`,
          [act[k], k === 'now' ? 'outcome' : 'event', `label_${k}`],
        );
        await client.query(
          `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, status, activity_occurred_at)
           VALUES ($1, $2, 'sub_p', 'lead_p', 'pending', now())`,
          [dlv[k], act[k]],
        );
        await client.query(
          `INSERT INTO attempts (id, delivery_id, attempted_at, status_code, duration_ms, response_body)
           VALUES ($1, $2, now(), 500, 7, 'body')`,
          [att[k], dlv[k]],
        );
      }
      // A delivery made this month of an activity of an old month.
      await client.query(
        `INSERT INTO deliveries (id, activity_id, subscription_id, lead_id, status)
         VALUES ($1, $2, 'sub_q', 'lead_p', 'succeeded')`,
        [idAt('dlv', new Date(), '9'), act.old],
      );
      const before = await snapshot(client);
      expect(before.activities).toHaveLength(7);
      expect(before.deliveries).toHaveLength(8);

      await client.end();
      open = false;
      expect(
        await migrate({ databaseUrl: databaseUrl(name), migrationsDir: MIGRATIONS_DIR }),
      ).toContain(CONVERSION);
      const after = new pg.Client({ connectionString: databaseUrl(name) });
      await after.connect();
      try {
        expect(await snapshot(after)).toEqual(before);

        const { rows: kinds } = await after.query<{ relname: string; relkind: string }>(
          `SELECT relname, relkind FROM pg_class WHERE relname = ANY ($1) ORDER BY relname`,
          [[...TABLES]],
        );
        expect(kinds.map((k) => k.relkind)).toEqual(['p', 'p', 'p', 'p']);

        const { rows: placed } = await after.query<{ part: string; id: string }>(
          `SELECT tableoid::regclass::text AS part, id FROM activities`,
        );
        const partOf = Object.fromEntries(placed.map((p) => [p.id, p.part]));
        expect(partOf[act.now]).toBe(`activities_p${month(new Date())}`);
        expect(partOf[act.boundary]).toBe(`activities_p${month(new Date())}`);
        expect(partOf[act.old]).toBe(`activities_p${month(monthsAgo(14))}`);
        expect(partOf[act.future]).toBe('activities_p204005');
        expect(partOf[act.zero]).toBe('activities_p_before');
        expect(partOf[act.max]).toBe('activities_p_after');
        expect(partOf[act.legacy]).toBe('activities_p_after');

        // Every month from the oldest row's to three ahead, for each table.
        const { rows: months } = await after.query<{ r_table: string; n: number }>(
          `SELECT r_table, count(*)::int AS n FROM leadhook_history_partitions()
            WHERE r_month <= now() + interval '4 months' GROUP BY r_table ORDER BY r_table`,
        );
        expect(months.map((m) => [m.r_table, m.n])).toEqual(
          [...TABLES].sort().map((t) => [t, 14 + 1 + 3]),
        );

        // The primary key still holds across partitions.
        await expect(
          after.query(
            `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note)
             VALUES ($1, 'acc_p', 'lead_p', 'event', 'again', 'n')`,
            [act.old],
          ),
        ).rejects.toThrow(/activities_p\d{6}_pkey|duplicate key/);

        // Deleting the lead still cascades to its history; its submissions keep no lead.
        await after.query(`DELETE FROM leads WHERE id = 'lead_p'`);
        for (const table of ['activities', 'deliveries', 'attempts']) {
          const { rows } = await after.query(`SELECT count(*)::int AS n FROM ${table}`);
          expect([table, rows[0]?.n]).toEqual([table, 0]);
        }
        const { rows: kept } = await after.query(
          'SELECT count(*)::int AS n FROM submissions WHERE lead_id IS NULL',
        );
        expect(kept[0]?.n).toBe(7);
      } finally {
        await after.end();
      }
    } finally {
      if (open) await client.end();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
    // Every migration applied twice over, on a busy machine: minutes, not seconds.
  }, 300_000);
});
