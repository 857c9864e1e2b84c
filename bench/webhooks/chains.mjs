// What sql-cost.mjs and size-cost.mjs both do to the webhook functions' tables
// from one connection: write leads with activities, and record the chains'
// deliveries as the worker does under load.
import { fakeId } from '../lib.mjs';

/**
 * `leadCount` new leads of the tenant, each with `perLead` 'message_sent' events
 * (occurred_at now, + i ms within a lead, so a lead's activities have an order)
 * and their outbox rows: open, as the activity path leaves them, or, with
 * `delivered`, a day old with the rows done (a history for the fan-out to pass
 * over). Returns the activities' ids, lead by lead.
 */
export async function insertLeadsWithActivities(
  client,
  { accountId, sourceId, playbookId },
  { leadCount, perLead, delivered = false },
) {
  const leadIds = Array.from({ length: leadCount }, () => fakeId('lead'));
  const activityIds = Array.from({ length: leadCount * perLead }, () => fakeId('act'));
  await client.query(
    `INSERT INTO leads (id, account_id, source_id, source_name, playbook_id, phone, email,
                        first_name, last_name, fields, canonical, external_id,
                        tcpa_opt_in_token, tcpa_opt_in_url, received_at)
     SELECT id, $2, $3, 'bench', $4, '+14155550100', 'bench@example.com', 'Bench', 'Lead',
            '{}', '{}', 'ext-' || n, 'tok-' || n, 'https://quotes.example.com/consent', now()
       FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)`,
    [leadIds, accountId, sourceId, playbookId],
  );
  await client.query(
    `WITH a AS (
       INSERT INTO activities (id, account_id, lead_id, activity_type, activity_label, note,
                               data, occurred_at)
       SELECT id, $2, ($3::text[])[(n - 1) / $4 + 1], 'event', 'message_sent', 'bench', '{}',
              now() - CASE WHEN $5 THEN interval '1 day' ELSE interval '0' END
                    + make_interval(secs => ((n - 1) % $4) / 1000.0)
         FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)
       RETURNING id)
     INSERT INTO outbox (topic, payload, done_at)
     SELECT 'activity', jsonb_build_object('activity_id', id), CASE WHEN $5 THEN now() END FROM a`,
    [activityIds, accountId, leadIds, perLead, delivered],
  );
  return activityIds;
}

/**
 * Records a 204 for every claimed delivery, `batch` attempts a call of
 * webhook_record_attempts (as the worker records them under load), each answer
 * claiming its chain's next delivery, until every chain is done. Takes the
 * claimed steps (webhook_step rows or objects); returns the deliveries recorded.
 */
export async function recordChains(client, claimed, batch) {
  const pending = [...claimed];
  let deliveries = 0;
  while (pending.length > 0) {
    const items = pending.splice(0, batch).map((step) => ({
      delivery_id: step.delivery_id,
      attempt: step.attempt_count,
      attempt_id: fakeId('att'),
      attempted_at: new Date(),
      ok: true,
      status_code: 204,
      duration_ms: 3,
      response_body: '',
      continue: true,
    }));
    const { rows } = await client.query(
      'SELECT (r.step).* FROM webhook_record_attempts($1, now(), 432000000, 20000) r',
      [JSON.stringify(items)],
    );
    deliveries += items.length;
    pending.push(...rows.filter((row) => row.claim === 'claimed'));
  }
  return deliveries;
}
