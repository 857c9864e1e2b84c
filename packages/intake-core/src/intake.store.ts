/**
 * The intake's SQL. Raw `pg`, not Prisma, on purpose: intake is the hot path
 * (its benchmark compares it with pgbench doing the same inserts), and a plain
 * pool with named prepared statements costs far less per row than Prisma
 * (bench/RESULTS.md, "Figures that code comments quoted"). Accepted leads are group-committed (MicroBatcher, packages/db): the
 * source lookups of concurrent requests share one query, and their writes one
 * call of the SQL function intake_accept_batch (locks in sorted order, duplicate
 * lookups, leads, submissions and outbox rows, as one transaction). The
 * Idempotency-Key path writes one lead at a time through intake_accept. Their
 * files (prisma/functions/intake/) say why they are functions.
 */
import { createHash } from 'node:crypto';
import {
  type ConsentRequirement,
  consentProvider,
  type LeadFieldError,
  type NormalizedLead,
  rejectionReasons,
} from '@leadhook/contracts';
import type { Pool, PoolClient } from '@leadhook/db';

/** An active source, resolved from the post URL (or its id), with what intake needs of its account. */
export interface IntakeSource {
  id: string;
  accountId: string;
  playbookId: string;
  name: string;
  /** Requests per second; null = the process default, 0 = unlimited. */
  rateLimit: number | null;
  redirectUrl: string | null;
  /** What the lead's tcpa_opt_in_token must be (a CHECK constraint keeps it in the enum). */
  consentRequired: ConsentRequirement;
  duplicateWindowDays: number | null;
}

/** What the seller's request shows about consent, kept with the lead. */
export interface RequestEvidence {
  ip: string | null;
  userAgent: string | null;
  receivedAt: Date;
}

/** Where a post URL points: the account in its path and the source key. */
export interface SourceKey {
  accountId: string;
  intakeKey: string;
}

/** A Map key for a SourceKey: the account id has no space (isId checked it). */
function sourceKeyText(key: SourceKey): string {
  return `${key.accountId} ${key.intakeKey}`;
}

/**
 * The active sources of many post URLs in one query (the group-committed lookup,
 * micro-batcher.ts); under load most of them name the same source, so distinct
 * keys are asked once. Outputs are in input order. The key is matched by a
 * unique index; paused, deleted and rotated-away sources (the old key no longer
 * exists) all come back as null: one "not found".
 */
export async function findActiveSources(
  pool: Pool,
  keys: readonly SourceKey[],
): Promise<(IntakeSource | null)[]> {
  const distinct = new Map<string, SourceKey>();
  for (const key of keys) distinct.set(sourceKeyText(key), key);
  const unique = [...distinct.values()];
  const { rows } = await pool.query<IntakeSource & { postKey: string }>({
    name: 'intake_find_sources',
    text: `SELECT s.intake_key AS "postKey", s.id, s.account_id AS "accountId", s.playbook_id AS "playbookId", s.name,
                  s.rate_limit AS "rateLimit", s.redirect_url AS "redirectUrl",
                  s.consent_required AS "consentRequired",
                  a.duplicate_window_days AS "duplicateWindowDays"
             FROM unnest($1::text[], $2::text[]) AS k(account_id, intake_key)
             JOIN marketing_sources s ON s.intake_key = k.intake_key AND s.account_id = k.account_id
             JOIN accounts a ON a.id = s.account_id
            WHERE s.status = 'active' AND s.deleted_at IS NULL`,
    values: [unique.map((k) => k.accountId), unique.map((k) => k.intakeKey)],
  });
  const found = new Map<string, IntakeSource>();
  for (const { postKey, ...source } of rows) {
    found.set(sourceKeyText({ accountId: source.accountId, intakeKey: postKey }), source);
  }
  return keys.map((k) => found.get(sourceKeyText(k)) ?? null);
}

/**
 * A source by its id within an account, paused or active, with what intake needs
 * of it (the api's way in: the caller's API key named the account). Deleted
 * sources and another account's are null.
 */
export async function findSourceById(
  pool: Pool,
  accountId: string,
  sourceId: string,
): Promise<{ source: IntakeSource; active: boolean } | null> {
  const { rows } = await pool.query<IntakeSource & { active: boolean }>({
    name: 'intake_find_source_by_id',
    text: `SELECT s.id, s.account_id AS "accountId", s.playbook_id AS "playbookId", s.name,
                  s.rate_limit AS "rateLimit", s.redirect_url AS "redirectUrl",
                  s.consent_required AS "consentRequired",
                  a.duplicate_window_days AS "duplicateWindowDays",
                  s.status = 'active' AS active
             FROM marketing_sources s
             JOIN accounts a ON a.id = s.account_id
            WHERE s.id = $1 AND s.account_id = $2 AND s.deleted_at IS NULL`,
    values: [sourceId, accountId],
  });
  const row = rows[0];
  if (!row) return null;
  const { active, ...source } = row;
  return { source, active };
}

/** A signed 64-bit advisory-lock key for a (namespace, parts) tuple. */
export function advisoryKey(namespace: string, ...parts: string[]): string {
  const digest = createHash('sha256')
    .update([namespace, ...parts].join('\u0000'))
    .digest();
  return digest.readBigInt64BE(0).toString();
}

/**
 * BEGIN and take a transaction-scoped advisory lock in one round trip. The key is
 * a decimal integer we computed (advisoryKey), so inlining it is safe; the simple
 * query protocol this needs takes no parameters.
 */
export async function beginLocked(client: PoolClient, lockKey: string): Promise<void> {
  if (!/^-?\d{1,19}$/.test(lockKey)) throw new Error('advisory lock key must be an integer');
  await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${lockKey})`);
}

/** One lead to accept (alone, or as one of a group-committed batch). */
export interface AcceptInput {
  lockKey: string;
  source: IntakeSource;
  lead: NormalizedLead;
  leadId: string;
  submissionId: string;
  windowDays: number;
  evidence: RequestEvidence;
}

export type AcceptOutcome = { result: 'accepted' | 'duplicate'; leadId: string };

/**
 * Takes the (account, phone) lock, then inserts the lead (with the consent
 * provider its token's shape shows, kept with its consent evidence:
 * docs/intake.md, "Consent evidence"), its submission and its outbox row, or,
 * when the account has a lead with this phone inside the window (counted from
 * that lead's acceptance), a duplicate submission pointing at it.
 * One round trip: the SQL function intake_accept
 * (prisma/functions/intake/intake_accept.sql says why). On
 * the pool it is its own transaction; on a client inside BEGIN it joins that one.
 */
export async function acceptOrDuplicate(
  db: Pool | PoolClient,
  input: AcceptInput,
): Promise<AcceptOutcome> {
  const { source, lead, evidence } = input;
  const { rows } = await db.query<{ result: 'accepted' | 'duplicate'; lead_id: string }>({
    name: 'intake_accept',
    text: `SELECT result, lead_id FROM intake_accept(
             $1::bigint, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb,
             $14, $15, $16, $17, $18, $19, $20::int, $21::timestamptz, $22)`,
    values: [
      input.lockKey,
      input.leadId,
      source.accountId,
      source.id,
      source.name,
      source.playbookId,
      lead.fields.phone,
      lead.fields.email,
      lead.fields.first_name,
      lead.fields.last_name,
      JSON.stringify(lead.fields),
      JSON.stringify(lead.canonical),
      JSON.stringify(lead.extra),
      lead.externalId,
      lead.fields.tcpa_opt_in_token,
      lead.fields.tcpa_opt_in_url,
      consentProvider(lead.fields.tcpa_opt_in_token),
      evidence.ip,
      evidence.userAgent,
      input.windowDays,
      evidence.receivedAt,
      input.submissionId,
    ],
  });
  const row = rows[0];
  if (!row) throw new Error('intake_accept returned no row');
  return { result: row.result, leadId: row.lead_id };
}

/**
 * acceptOrDuplicate for many leads in one round trip and one transaction: the
 * SQL function intake_accept_batch (prisma/functions/intake/intake_accept_batch.sql
 * says how it locks and why).
 * The items travel as one JSON document: JSON.stringify is native and PostgreSQL
 * parses jsonb faster than pg serializes 20 array parameters. Outputs are in
 * input order. All or nothing: a rejection means no item was stored.
 */
export async function acceptBatch(
  pool: Pool,
  inputs: readonly AcceptInput[],
): Promise<AcceptOutcome[]> {
  const items = inputs.map(
    ({ lockKey, source, lead, leadId, submissionId, windowDays, evidence }, item) => ({
      item,
      lock_key: lockKey,
      lead_id: leadId,
      account_id: source.accountId,
      source_id: source.id,
      source_name: source.name,
      playbook_id: source.playbookId,
      phone: lead.fields.phone,
      email: lead.fields.email,
      first_name: lead.fields.first_name,
      last_name: lead.fields.last_name,
      fields: lead.fields,
      canonical: lead.canonical,
      extra: lead.extra,
      external_id: lead.externalId,
      tcpa_opt_in_token: lead.fields.tcpa_opt_in_token,
      tcpa_opt_in_url: lead.fields.tcpa_opt_in_url,
      consent_provider: consentProvider(lead.fields.tcpa_opt_in_token),
      ip: evidence.ip,
      user_agent: evidence.userAgent,
      window_days: windowDays,
      received_at: evidence.receivedAt,
      submission_id: submissionId,
    }),
  );
  const { rows } = await pool.query<{
    item: number;
    result: 'accepted' | 'duplicate';
    lead_id: string;
  }>({
    name: 'intake_accept_batch',
    text: 'SELECT item, result, lead_id FROM intake_accept_batch($1::jsonb)',
    values: [JSON.stringify(items)],
  });
  const outcomes = new Array<AcceptOutcome | undefined>(inputs.length);
  for (const row of rows) outcomes[row.item] = { result: row.result, leadId: row.lead_id };
  return outcomes.map((outcome, item) => {
    if (!outcome) throw new Error(`intake_accept_batch returned no row for item ${item}`);
    return outcome;
  });
}

/**
 * A rejected submission: its reasons (rejectionReasons: known field names and
 * codes, bounded), the IP and the time. Nothing the seller wrote is kept: not a
 * value, not an unknown field's name, not the external_id or the User-Agent
 * (free text a rejected request controls), since no personal data from a
 * rejected body is stored (docs/intake.md).
 */
export async function insertRejected(
  db: Pool | PoolClient,
  input: {
    source: IntakeSource;
    submissionId: string;
    errors: readonly LeadFieldError[];
    evidence: RequestEvidence;
  },
): Promise<void> {
  await db.query({
    name: 'intake_reject',
    text: `INSERT INTO submissions (id, account_id, source_id, result, errors, ip, created_at)
           VALUES ($1, $2, $3, 'rejected', $4, $5, $6)`,
    values: [
      input.submissionId,
      input.source.accountId,
      input.source.id,
      JSON.stringify(rejectionReasons(input.errors)),
      input.evidence.ip,
      input.evidence.receivedAt,
    ],
  });
}

export interface StoredResponse {
  requestHash: string;
  statusCode: number;
  body: unknown;
}

/** How long an Idempotency-Key is remembered (docs/intake.md, "Idempotency"). */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * What is stored for an Idempotency-Key: its SHA-256, not the key. The key is
 * free text a seller chooses (some use the lead's email or phone), and it is
 * kept with rejected submissions' answers too.
 */
export function idempotencyKeyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function findIdempotentResponse(
  client: PoolClient,
  sourceId: string,
  key: string,
): Promise<StoredResponse | null> {
  const { rows } = await client.query<StoredResponse>({
    name: 'intake_idem_find',
    text: `SELECT request_hash AS "requestHash", status_code AS "statusCode", response_body AS body
             FROM idempotency_keys
            WHERE source_id = $1 AND key = $2
              AND created_at > now() - make_interval(hours => $3)`,
    values: [sourceId, idempotencyKeyDigest(key), IDEMPOTENCY_TTL_HOURS],
  });
  return rows[0] ?? null;
}

/** Stores (or, past its 24 h, replaces) the response to replay for this key. */
export async function storeIdempotentResponse(
  client: PoolClient,
  sourceId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await client.query({
    name: 'intake_idem_store',
    text: `INSERT INTO idempotency_keys (source_id, key, request_hash, status_code, response_body)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (source_id, key) DO UPDATE
             SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code,
                 response_body = EXCLUDED.response_body, created_at = now()`,
    values: [
      sourceId,
      idempotencyKeyDigest(key),
      response.requestHash,
      response.statusCode,
      JSON.stringify(response.body),
    ],
  });
}
