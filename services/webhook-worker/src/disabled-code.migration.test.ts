import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '@leadhook/db';
import { useHarness } from '@leadhook/testkit';
import pg from 'pg';
import { Harness } from './testing/harness.js';

/**
 * The migration that adds subscriptions.disabled_code: run on a table as it was
 * before it (the column dropped again), it gives each disabled row the code its
 * sentence names, the one leadhook_webhook_subscriptions_disabled counts it by.
 */

const MIGRATION = join(
  MIGRATIONS_DIR,
  '20261126210200_subscription_disabled_code',
  'migration.sql',
);

const h = useHarness(() => Harness.create());

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: h.db.url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('the disabled_code migration', () => {
  it('backfills the code from the reasons written before it, and refuses an unknown code', async () => {
    // [the sentence stored, the code it is given]
    const written: [string, string | null][] = [
      ['manual', 'manual'],
      ['The endpoint answered 410 Gone.', 'gone'],
      ['Every delivery failed for 5 days (since 2026-11-01T10:00:00.000Z).', 'failing'],
      ['failing_5_days', null],
    ];
    const expected: Record<string, string | null> = {};
    for (const [reason, code] of written) {
      const { id } = await h.subscription({ url: 'https://example.com/hook', enabled: false });
      await h.prisma.subscription.update({ where: { id }, data: { disabledReason: reason } });
      expected[id] = code;
    }
    const enabled = await h.subscription({ url: 'https://example.com/hook' });
    expected[enabled.id] = null;

    await sql('ALTER TABLE subscriptions DROP COLUMN disabled_code');
    await sql(readFileSync(MIGRATION, 'utf8'));

    const rows = await h.prisma.subscription.findMany({
      where: { id: { in: Object.keys(expected) } },
    });
    expect(Object.fromEntries(rows.map((r) => [r.id, r.disabledCode]))).toEqual(expected);
    await expect(
      h.prisma.subscription.update({ where: { id: enabled.id }, data: { disabledCode: 'paused' } }),
    ).rejects.toThrow(/subscriptions_disabled_code_check/);
  });
});
