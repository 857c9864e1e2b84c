import pg from 'pg';
import { migrate } from './migrator.js';
import { MIGRATIONS_DIR } from './paths.js';
import { databaseUrl, migrationsBefore, withAdmin } from './testing/index.js';

/**
 * The migration that partitions the outbox by day of created_at
 * (docs/operations.md, "Outbox partitions"): an outbox filled in the old layout,
 * open and closed rows of every age, keeps every row with its relay state, each
 * in the partition of its day; the open rows the consumers could not find by
 * day are aligned; the id sequence goes on; and the consumers close what was
 * left open.
 */

const CONVERSION = '20261127075000_outbox_partitioned';
const DAY_MS = 86_400_000;

/** outbox_pYYYYMMDD of `at`'s UTC day. */
function day(at: Date): string {
  return `outbox_p${at.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

interface Row {
  id: string;
  topic: string;
  payload: Record<string, string>;
  created_at: string;
  next_relay_at: string;
  relay_count: number;
  done_at: string | null;
}

async function snapshot(client: pg.Client): Promise<Row[]> {
  const { rows } = await client.query<Row>(
    `SELECT id::text, topic, payload, created_at::text, next_relay_at::text, relay_count,
            done_at::text
       FROM outbox ORDER BY id`,
  );
  return rows;
}

describe('the outbox partitioning migration', () => {
  it('keeps every row of the old layout, each in the partition of its day, and the ids going on', async () => {
    const name = `leadhook_t_${Math.floor(Date.now() / 1000)}_obx${Math.random().toString(16).slice(2, 10)}`;
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
        INSERT INTO accounts (id, name) VALUES ('acc_o', 'outbox');
        INSERT INTO playbooks (id, account_id, name) VALUES ('pb_o', 'acc_o', 'o');
        INSERT INTO marketing_sources (id, account_id, playbook_id, name, source_type, intake_key)
        VALUES ('src_o', 'acc_o', 'pb_o', 'o', 'web_form', 'key_o');
        INSERT INTO subscriptions (id, account_id, url, secret)
        VALUES ('sub_o', 'acc_o', 'https://example.com/hook', 'whsec_o');`);
      const lead = (id: string, createdAt: string) =>
        client.query(
          `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                              first_name, last_name, fields, canonical, tcpa_opt_in_token,
                              tcpa_opt_in_url, received_at, created_at)
           VALUES ($1, 'acc_o', 'src_o', 'o', 'pb_o', '+15555550100', 'o@example.com', 'O', 'P',
                   '{}', '{}', 't', 'https://example.com/optin', $2, $2)`,
          [id, createdAt],
        );
      await lead('lead_o', new Date(Date.now() - 3 * DAY_MS).toISOString());
      // A lead whose enrollment row was written before it (no current writer does).
      await lead('lead_late', new Date(Date.now() - 60_000).toISOString());
      const activity = (id: string, createdAt: string) =>
        client.query(
          `INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note,
                                   occurred_at, created_at)
           VALUES ($1, 'acc_o', 'lead_o', 'event', 'message_sent', 'n', $2, $2)`,
          [id, createdAt],
        );
      const now = Date.now();
      const at = (ms: number) => new Date(now + ms).toISOString();
      await activity('act_aligned', at(-2 * DAY_MS));
      await activity('act_misaligned', at(-DAY_MS));

      // Every kind of row: closed and open, of both topics, with relay state, of
      // days in the past, today, ahead and outside 2000–2100.
      const rows: [string, Record<string, string>, string, string, number, string | null][] = [
        [
          'activity',
          { activity_id: 'act_old' },
          at(-40 * DAY_MS),
          at(-40 * DAY_MS),
          0,
          at(-39 * DAY_MS),
        ],
        ['activity', { activity_id: 'act_aligned' }, at(-2 * DAY_MS), at(3_600_000), 7, null],
        // Written 5 ms before its activity: aligned on it.
        ['activity', { activity_id: 'act_misaligned' }, at(-DAY_MS - 5), at(60_000), 3, null],
        // Its activity is gone: kept as it is (the fan-out closes it by payload).
        ['activity', { activity_id: 'act_gone' }, at(-DAY_MS), at(0), 1, null],
        ['enrollment', { lead_id: 'lead_o' }, at(-3 * DAY_MS), at(-3 * DAY_MS), 2, at(-3 * DAY_MS)],
        // Written before its lead: aligned on the lead's created_at.
        ['enrollment', { lead_id: 'lead_late' }, at(-120_000), at(-1000), 4, null],
        ['enrollment', { lead_id: 'lead_now' }, at(0), at(10_000), 0, null],
        ['enrollment', { lead_id: 'lead_ahead' }, at(20 * DAY_MS), at(20 * DAY_MS), 0, null],
        ['enrollment', { lead_id: 'lead_1999' }, '1999-12-31T23:59:59.999Z', at(0), 0, at(0)],
        ['enrollment', { lead_id: 'lead_2150' }, '2150-01-01T00:00:00.000Z', at(0), 0, null],
        ['enrollment', { lead_id: 'lead_minus_inf' }, '-infinity', at(0), 0, at(0)],
      ];
      for (const [topic, payload, createdAt, nextRelayAt, relayCount, doneAt] of rows) {
        await client.query(
          `INSERT INTO outbox (topic, payload, created_at, next_relay_at, relay_count, done_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [topic, payload, createdAt, nextRelayAt, relayCount, doneAt],
        );
      }
      const before = await snapshot(client);
      expect(before).toHaveLength(rows.length);
      const byKey = (list: Row[], key: string) =>
        list.find((r) => Object.values(r.payload).includes(key));
      const createdOf = async (sql: string, id: string) =>
        (await client.query<{ t: string }>(sql, [id])).rows[0]?.t;
      const aligned = {
        act_misaligned: await createdOf(
          'SELECT created_at::text AS t FROM activities WHERE id = $1',
          'act_misaligned',
        ),
        lead_late: await createdOf(
          'SELECT created_at::text AS t FROM leads WHERE id = $1',
          'lead_late',
        ),
      };
      const max = BigInt(before[before.length - 1]?.id ?? 0);

      await client.end();
      open = false;
      expect(
        await migrate({ databaseUrl: databaseUrl(name), migrationsDir: MIGRATIONS_DIR }),
      ).toContain(CONVERSION);
      const after = new pg.Client({ connectionString: databaseUrl(name) });
      await after.connect();
      try {
        // Every row, with its relay state; the two unreachable open rows aligned.
        const expected = before.map((r) => {
          const key = Object.values(r.payload)[0] as keyof typeof aligned;
          return key in aligned ? { ...r, created_at: aligned[key] as string } : r;
        });
        expect(await snapshot(after)).toEqual(expected);
        expect(byKey(expected, 'act_misaligned')?.created_at).not.toBe(
          byKey(before, 'act_misaligned')?.created_at,
        );

        const { rows: kind } = await after.query<{ relkind: string }>(
          `SELECT relkind FROM pg_class WHERE relname = 'outbox'`,
        );
        expect(kind).toEqual([{ relkind: 'p' }]);
        const { rows: placed } = await after.query<{ part: string; payload: Row['payload'] }>(
          'SELECT tableoid::regclass::text AS part, payload FROM outbox',
        );
        const partOf = (key: string) =>
          placed.find((p) => Object.values(p.payload).includes(key))?.part;
        expect(partOf('act_old')).toBe(day(new Date(now - 40 * DAY_MS)));
        expect(partOf('act_misaligned')).toBe(day(new Date(now - DAY_MS)));
        expect(partOf('lead_now')).toBe(day(new Date(now)));
        expect(partOf('lead_ahead')).toBe(day(new Date(now + 20 * DAY_MS)));
        expect(partOf('lead_1999')).toBe('outbox_p_before');
        expect(partOf('lead_minus_inf')).toBe('outbox_p_before');
        expect(partOf('lead_2150')).toBe('outbox_p_after');

        // The days of its rows, and today and the seven days ahead, each once.
        const { rows: days } = await after.query<{ name: string }>(
          'SELECT r_partition AS name FROM leadhook_outbox_partitions()',
        );
        const names = days.map((d) => d.name);
        for (let d = 0; d <= 7; d++) expect(names).toContain(day(new Date(now + d * DAY_MS)));
        expect(names).toContain(day(new Date(now - 40 * DAY_MS)));
        expect(new Set(names).size).toBe(names.length);

        // The key and the indexes; outbox_done_idx (the row-by-row retention's) is gone.
        const { rows: indexes } = await after.query<{ name: string; def: string }>(
          `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def
             FROM pg_index WHERE indrelid = 'outbox'::regclass ORDER BY 1`,
        );
        expect(indexes.map((i) => i.name)).toEqual([
          'outbox_open_activity_idx',
          'outbox_open_enrollment_lead_idx',
          'outbox_pkey',
          'outbox_relay_activity_idx',
          'outbox_relay_enrollment_idx',
        ]);
        expect(indexes.find((i) => i.name === 'outbox_pkey')?.def).toMatch(
          /UNIQUE INDEX outbox_pkey ON ONLY public\.outbox USING btree \(id, created_at\)/,
        );

        // The sequence went along: a new row's id follows the last.
        const { rows: next } = await after.query<{ id: string }>(
          `INSERT INTO outbox (topic, payload) VALUES ('enrollment', '{"lead_id":"lead_next"}')
           RETURNING id::text`,
        );
        expect(BigInt(next[0]?.id ?? 0)).toBeGreaterThan(max);
        const { rows: owner } = await after.query<{ seq: string | null }>(
          `SELECT pg_get_serial_sequence('outbox', 'id') AS seq`,
        );
        expect(owner).toEqual([{ seq: 'public.outbox_id_seq' }]);

        // The consumers find what was left open: the aligned activity row is
        // fanned out and closed, and so is the enrollment row written before its lead.
        const { rows: fan } = await after.query<{ r: { result: string; activities: number } }>(
          `SELECT webhook_fan_out('act_misaligned', now(), 0) AS r`,
        );
        expect(fan[0]?.r).toMatchObject({ result: 'fanned_out', activities: 2 });
        const { rows: enrolled } = await after.query<{ r_kind: string }>(
          `SELECT r_kind FROM playbook_enroll('lead_late', 'enr_late', now(), 'started', ARRAY['act_started'])`,
        );
        expect(enrolled[0]?.r_kind).toBe('enrolled');
        const { rows: still } = await after.query<{ key: string }>(
          `SELECT coalesce(payload->>'activity_id', payload->>'lead_id') AS key FROM outbox
            WHERE done_at IS NULL AND payload->>'activity_id' IS DISTINCT FROM 'act_started'
            ORDER BY 1`,
        );
        expect(still.map((s) => s.key)).toEqual([
          'act_gone',
          'lead_2150',
          'lead_ahead',
          'lead_next',
          'lead_now',
        ]);
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
