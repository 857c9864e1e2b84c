import { createPool } from '@leadhook/db';
import type { Subscriber } from './load.js';
import { PLAYBOOK_STEPS, SELECTED_LABELS } from './stack.js';

/**
 * What "nothing lost, nothing twice" means after a fault, read from PostgreSQL
 * (the truth) and from what the subscriber received.
 */

// biome-ignore lint/suspicious/noExplicitAny: rows as pg returns them
async function query<T = Record<string, any>>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const pool = createPool({ databaseUrl, max: 1 });
  try {
    return (await pool.query(text, params)).rows as T[];
  } finally {
    await pool.end();
  }
}

export interface Progress {
  leads: number;
  withOutcome: number;
  openOutbox: number;
  pendingDeliveries: number;
  selectedActivities: number;
  selectedReceived: number;
}

/** How far the pipeline is: every lead worked, every outbox row closed, every webhook received. */
export async function progress(databaseUrl: string, subscriber: Subscriber): Promise<Progress> {
  const [row] = await query<{
    leads: string;
    with_outcome: string;
    open_outbox: string;
    pending: string;
  }>(
    databaseUrl,
    `SELECT (SELECT count(*) FROM leads) AS leads,
            (SELECT count(*) FROM leads WHERE outcome IS NOT NULL) AS with_outcome,
            (SELECT count(*) FROM outbox WHERE done_at IS NULL) AS open_outbox,
            (SELECT count(*) FROM deliveries WHERE status = 'pending') AS pending`,
  );
  const selected = await query<{ id: string }>(
    databaseUrl,
    'SELECT id FROM activities WHERE activity_label = ANY($1)',
    [SELECTED_LABELS],
  );
  const received = subscriber.counts();
  return {
    leads: Number(row?.leads),
    withOutcome: Number(row?.with_outcome),
    openOutbox: Number(row?.open_outbox),
    pendingDeliveries: Number(row?.pending),
    selectedActivities: selected.length,
    selectedReceived: selected.filter((a) => received.has(a.id)).length,
  };
}

/**
 * Waits until the pipeline has caught up: every stored lead has its outcome, no
 * outbox row is open, no delivery pending, and every selected activity was
 * received. Throws with the last progress seen when it has not by `timeoutMs`.
 */
export async function settle(
  databaseUrl: string,
  subscriber: Subscriber,
  timeoutMs: number,
): Promise<Progress> {
  const deadline = Date.now() + timeoutMs;
  let last: Progress | undefined;
  for (;;) {
    last = await progress(databaseUrl, subscriber).catch(() => last);
    if (
      last &&
      last.leads > 0 &&
      last.withOutcome === last.leads &&
      last.openOutbox === 0 &&
      last.pendingDeliveries === 0 &&
      last.selectedReceived === last.selectedActivities
    ) {
      return last;
    }
    if (process.env.FAULTS_VERBOSE) process.stderr.write(`settling: ${JSON.stringify(last)}\n`);
    if (Date.now() > deadline) {
      throw new Error(`not caught up after ${timeoutMs} ms: ${JSON.stringify(last)}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export interface Findings {
  /** 201 lead ids not stored. */
  acceptedMissing: string[];
  /** 201 leads without exactly one enrollment and one `started`. */
  notEnrolledOnce: Array<{ id: string; enrollments: number; started: number }>;
  /** Stored leads whose play did not run each step once and end `unreachable`. */
  notWorkedOnce: Array<Record<string, unknown>>;
  /** (enrollment, step) pairs with two provider messages or two step activities. */
  stepsTwice: Array<Record<string, unknown>>;
  /** Selected activities without exactly one succeeded delivery (one 2xx attempt). */
  deliveryProblems: Array<Record<string, unknown>>;
  /** Deliveries of activities the subscription did not select. */
  unselectedDeliveries: number;
  /** Deliveries whose attempt rows are not exactly one per counted attempt. */
  attemptProblems: Array<Record<string, unknown>>;
  /** Selected activities the subscriber never received. */
  notReceived: string[];
  /** Receipts whose webhook-id is not one activity (or whose payload disagrees). */
  strayReceipts: Array<Record<string, unknown>>;
  /** Outbox rows still open. */
  openOutbox: number;
}

/** Everything that would count as lost or duplicated; all empty when the run was clean. */
export async function findings(
  databaseUrl: string,
  accepted: readonly string[],
  subscriber: Subscriber,
): Promise<Findings> {
  const acceptedMissing = (
    await query<{ id: string }>(
      databaseUrl,
      'SELECT id FROM unnest($1::text[]) AS a(id) WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.id = a.id)',
      [accepted],
    )
  ).map((r) => r.id);

  const notEnrolledOnce = (
    await query<{ id: string; enrollments: string; started: string }>(
      databaseUrl,
      `SELECT a.id,
              (SELECT count(*) FROM enrollments e WHERE e.lead_id = a.id) AS enrollments,
              (SELECT count(*) FROM activities x
                WHERE x.lead_id = a.id AND x.activity_label = 'started') AS started
         FROM unnest($1::text[]) AS a(id)`,
      [accepted],
    )
  )
    .map((r) => ({ id: r.id, enrollments: Number(r.enrollments), started: Number(r.started) }))
    .filter((r) => r.enrollments !== 1 || r.started !== 1);

  const notWorkedOnce = await query(
    databaseUrl,
    `SELECT l.id, l.outcome, e.status,
            (SELECT count(*) FROM enrollments x WHERE x.lead_id = l.id)::int AS enrollments,
            (SELECT count(*) FROM provider_messages m WHERE m.lead_id = l.id)::int AS messages,
            (SELECT count(*) FROM activities a
              WHERE a.lead_id = l.id AND a.activity_label = 'first_message_sent')::int AS sms,
            (SELECT count(*) FROM activities a
              WHERE a.lead_id = l.id AND a.activity_label = 'call_attempted')::int AS calls,
            (SELECT count(*) FROM activities a
              WHERE a.lead_id = l.id AND a.activity_label = 'completed')::int AS completed,
            (SELECT count(*) FROM activities a
              WHERE a.lead_id = l.id AND a.activity_type = 'outcome')::int AS outcomes
       FROM leads l LEFT JOIN enrollments e ON e.lead_id = l.id`,
  ).then((rows) =>
    rows.filter(
      (r) =>
        r.outcome !== 'unreachable' ||
        r.status !== 'completed' ||
        r.enrollments !== 1 ||
        r.messages !== PLAYBOOK_STEPS.length ||
        r.sms !== 1 ||
        r.calls !== 1 ||
        r.completed !== 1 ||
        r.outcomes !== 1,
    ),
  );

  const stepsTwice = [
    ...(await query(
      databaseUrl,
      `SELECT enrollment_id, step, count(*)::int AS n FROM provider_messages
        GROUP BY enrollment_id, step HAVING count(*) > 1`,
    )),
    ...(await query(
      databaseUrl,
      `SELECT enrollment_id, data->>'step' AS step, activity_label, count(*)::int AS n
         FROM activities WHERE data ? 'step'
        GROUP BY enrollment_id, data->>'step', activity_label HAVING count(*) > 1`,
    )),
  ];

  const deliveryProblems = await query(
    databaseUrl,
    `SELECT a.id AS activity_id, a.activity_label,
            count(d.id)::int AS deliveries,
            count(d.id) FILTER (WHERE d.status = 'succeeded')::int AS succeeded
       FROM activities a LEFT JOIN deliveries d ON d.activity_id = a.id
      WHERE a.activity_label = ANY($1)
      GROUP BY a.id, a.activity_label
     HAVING count(d.id) <> 1 OR count(d.id) FILTER (WHERE d.status = 'succeeded') <> 1`,
    [SELECTED_LABELS],
  );
  const [unselected] = await query<{ n: number }>(
    databaseUrl,
    `SELECT count(*)::int AS n FROM deliveries d JOIN activities a ON a.id = d.activity_id
      WHERE NOT (a.activity_label = ANY($1))`,
    [SELECTED_LABELS],
  );
  // Every recorded HTTP try is an attempt row; a try that lost a race to another
  // worker is recorded too, so extra rows here mean a delivery was tried twice.
  const attemptProblems = await query(
    databaseUrl,
    `SELECT d.id, d.status, d.attempt_count,
            count(t.id)::int AS attempts,
            count(t.id) FILTER (WHERE t.status_code BETWEEN 200 AND 299)::int AS ok
       FROM deliveries d LEFT JOIN attempts t ON t.delivery_id = d.id
      GROUP BY d.id
     HAVING count(t.id) <> d.attempt_count
         OR count(t.id) FILTER (WHERE t.status_code BETWEEN 200 AND 299) <> 1`,
  );

  const activities = await query<{ id: string; activity_label: string; lead_id: string }>(
    databaseUrl,
    'SELECT id, activity_label, lead_id FROM activities',
  );
  const byId = new Map(activities.map((a) => [a.id, a]));
  const received = subscriber.counts();
  const notReceived = activities
    .filter((a) => SELECTED_LABELS.includes(a.activity_label) && !received.has(a.id))
    .map((a) => a.id);
  const strayReceipts = subscriber.receipts
    .filter((r) => {
      const activity = byId.get(r.webhookId);
      return (
        !activity ||
        r.id !== r.webhookId ||
        activity.activity_label !== r.label ||
        activity.lead_id !== r.leadId ||
        !SELECTED_LABELS.includes(r.label)
      );
    })
    .map((r) => ({ ...r }));

  const [open] = await query<{ n: number }>(
    databaseUrl,
    'SELECT count(*)::int AS n FROM outbox WHERE done_at IS NULL',
  );

  return {
    acceptedMissing,
    notEnrolledOnce,
    notWorkedOnce: notWorkedOnce.slice(0, 20),
    stepsTwice,
    deliveryProblems: deliveryProblems.slice(0, 20),
    unselectedDeliveries: unselected?.n ?? 0,
    attemptProblems: attemptProblems.slice(0, 20),
    notReceived: notReceived.slice(0, 20),
    strayReceipts: strayReceipts.slice(0, 20),
    openOutbox: open?.n ?? 0,
  };
}

/** The findings of a clean run: what a test expects `findings` to equal. */
export const CLEAN: Findings = {
  acceptedMissing: [],
  notEnrolledOnce: [],
  notWorkedOnce: [],
  stepsTwice: [],
  deliveryProblems: [],
  unselectedDeliveries: 0,
  attemptProblems: [],
  notReceived: [],
  strayReceipts: [],
  openOutbox: 0,
};

/** Leads stored although their POST was answered with something other than 201. */
export async function storedDespite(
  databaseUrl: string,
  answers: ReadonlyMap<string, number | 'error'>,
  status: number,
): Promise<string[]> {
  const externalIds = [...answers].filter(([, a]) => a === status).map(([id]) => id);
  const rows = await query<{ external_id: string }>(
    databaseUrl,
    'SELECT external_id FROM leads WHERE external_id = ANY($1)',
    [externalIds],
  );
  return rows.map((r) => r.external_id);
}
