import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consentProvider } from '@leadhook/contracts';
import { MIGRATIONS_DIR } from '@leadhook/db';
import { aLead, useHarness } from '@leadhook/testkit';

import { createHarness } from './testing/harness.js';

/**
 * The migration that adds leads.consent_provider: on leads stored before it
 * (the column dropped again, as it was then), its backfill gives each lead the
 * provider intake stores today, consentProvider of the stored token.
 */

const MIGRATION = join(MIGRATIONS_DIR, '20261127005551_lead_consent_provider', 'migration.sql');

const h = useHarness(() => createHarness());

const HEX40 = 'eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947';
const UUID = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';

// Tokens as intake stores them (trimmed): each shape consentProvider recognises,
// and near misses of each.
const TOKENS = [
  HEX40,
  HEX40.toUpperCase(),
  `https://cert.trustedform.com/${HEX40}`,
  `http://cert.trustedform.com/${HEX40}`,
  `HTTPS://Cert.TrustedForm.com/${HEX40}`,
  UUID,
  UUID.toUpperCase(),
  '00000000-0000-0000-0000-000000000000',
  'consent-123',
  HEX40.slice(1),
  `${HEX40}0`,
  `${HEX40.slice(1)}g`,
  `https://cert.trustedform.com/${HEX40.slice(1)}`,
  `https://cert.trustedform.com/${HEX40}/extra`,
  `https://cert.trustedform.com/${HEX40}?x=1`,
  `https://evil.example/${HEX40}`,
  `https://cert.trustedform.com.evil.example/${HEX40}`,
  `https://certXtrustedform.com/${HEX40}`,
  `ftp://cert.trustedform.com/${HEX40}`,
  'a1b2c3d4e5f64789abcdef0123456789',
  UUID.slice(0, -1),
  `${UUID}0`,
  `{${UUID}}`,
  `g${UUID.slice(1)}`,
  `${UUID}\nx`,
  `x\n${UUID}`,
];

describe('the consent provider migration', () => {
  it('gives existing leads the provider consentProvider gives their token', async () => {
    const source = await h.makeSource();
    const ids = new Map<string, string>();
    for (const token of TOKENS) {
      ids.set((await aLead(h.prisma, source, { tcpaOptInToken: token })).id, token);
    }
    expect(new Set(TOKENS.map(consentProvider))).toEqual(new Set(['trustedform', 'jornaya', null]));

    const client = await h.pool.connect();
    try {
      await client.query('ALTER TABLE leads DROP COLUMN consent_provider');
      await client.query(readFileSync(MIGRATION, 'utf8'));
    } finally {
      // Its pg_temp function goes with the session.
      client.release(true);
    }

    const { rows } = await h.pool.query<{ id: string; consent_provider: string | null }>(
      'SELECT id, consent_provider FROM leads WHERE source_id = $1',
      [source.sourceId],
    );
    expect(rows).toHaveLength(TOKENS.length);
    for (const row of rows) {
      const token = ids.get(row.id) ?? '';
      expect({ token, provider: row.consent_provider }).toEqual({
        token,
        provider: consentProvider(token),
      });
    }
  });
});
