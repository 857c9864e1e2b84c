import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@leadhook/observability';
import { jobsFailed, useHarness, waitFor } from '@leadhook/testkit';
import { Harness, type RunningWorker } from './testing/harness.js';

/**
 * What the webhook worker says about a lead's deliveries at each level
 * (docs/operations.md "Logs"): at the default level (info) only what went
 * wrong, a failed try at warn; a successful try and the fan-out at debug.
 */

const h = useHarness(() => Harness.create(), { afterEach: (h) => h.stopWorkers() });

interface Line {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The levels at or above the default (info). */
const SHOWN_BY_DEFAULT = ['info', 'warn', 'error', 'fatal'];

/** A logger at `level` whose JSON lines the test reads. */
function capturing(level: 'info' | 'debug'): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) {
        if (text.trim() !== '') lines.push(JSON.parse(text) as Line);
      }
      done();
    },
  });
  return { logger: createLogger({ service: 'webhook-worker', level, destination }), lines };
}

/** A lead whose first try gets a 500 and whose retry a 200, through the real worker. */
async function oneFailureThenSuccess(w: RunningWorker) {
  let answered = 0;
  const subscriber = await h.subscriber((_req, res) => {
    answered++;
    res.writeHead(answered === 1 ? 500 : 200).end();
  });
  const { playbookId, sourceId } = await h.playbook();
  const { id: subscriptionId } = await h.subscription({ url: subscriber.url, playbookId });
  const leadId = await h.lead({ playbookId, sourceId });
  const result = await w.recorder.record({ leadId, type: 'event', label: 'started' });
  if (result.kind !== 'recorded') throw new Error(`not recorded: ${result.kind}`);
  await waitFor(async () => {
    const rows = await h.prisma.delivery.findMany({ where: { subscriptionId } });
    return rows.length === 1 && rows[0]?.status === 'succeeded';
  });
  return { leadId, subscriptionId };
}

const attemptLines = (lines: Line[], leadId: string) =>
  lines.filter((l) => l.msg === 'delivery attempt' && l.lead_id === leadId);

it('at info: a failed try at warn, nothing per successful try or per fan-out', async () => {
  const { logger, lines } = capturing('info');
  const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' }, {}, undefined, logger);
  const { leadId } = await oneFailureThenSuccess(w);

  expect(attemptLines(lines, leadId)).toEqual([
    expect.objectContaining({ level: 'warn', outcome: 'retry', status_code: 500, attempt: 0 }),
  ]);
  // No per-job line at info or above: only lifecycle lines (started, …) and warnings.
  const perJob = lines.filter(
    (l) =>
      SHOWN_BY_DEFAULT.includes(l.level) && ['fan-out job', 'delivery job skipped'].includes(l.msg),
  );
  expect(perJob).toEqual([]);
});

it('at debug: the successful try and the fan-out are there', async () => {
  const { logger, lines } = capturing('debug');
  const w = await h.startWorker({ WEBHOOK_RETRY_SCHEDULE: '0,100ms' }, {}, undefined, logger);
  const { leadId } = await oneFailureThenSuccess(w);

  expect(attemptLines(lines, leadId)).toEqual([
    expect.objectContaining({ level: 'warn', outcome: 'retry', status_code: 500 }),
    expect.objectContaining({ level: 'debug', outcome: 'succeeded', status_code: 200 }),
  ]);
  expect(lines.filter((l) => l.msg === 'fan-out job').map((l) => l.level)).toEqual(['debug']);
});

describe('a job whose payload is malformed', () => {
  it('fails at its first attempt, for good, logged without the payload', async () => {
    const { logger, lines } = capturing('info');
    const w = await h.startWorker({}, {}, undefined, logger);
    const failed = await jobsFailed(w.prefix, [
      { topic: 'activity', data: { activity_id: 'act_x', email: 'jane@example.com' } },
      { topic: 'delivery', data: { delivery_id: 'del_x', attempt: '+15555550100' } },
    ]);
    for (const job of failed) {
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toMatch(/^invalid (activity|delivery) job payload/);
    }
    await waitFor(async () => lines.filter((l) => l.msg === 'job failed').length === 2);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('jane');
    expect(text).not.toContain('5555550100');
    // Valid jobs go on as before.
    await oneFailureThenSuccess(w);
  });
});
