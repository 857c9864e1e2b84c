// The order jest hands test files to its two workers. Without recorded timings
// (a fresh clone, as in CI) jest runs the largest files first, which left the
// fault tests, small files that drive the whole service under load, to the
// end, two at a time: each one's load slowed the other about three-fold. Here
// the heaviest files are spread through the run instead, each among light
// ones, so at most one of them runs at a time as a rule.
import { relative } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

/** The files that start the whole service and load it, slowest first (CI's timings). */
const HEAVY = [
  'e2e/faults/redis-outage.test.ts',
  'e2e/faults/kill.test.ts',
  'e2e/start.test.ts',
  'scripts/src/cli.test.ts',
  'e2e/faults/sigterm.test.ts',
  'e2e/faults/sigterm-webhooks.test.ts',
  'e2e/twilio-crash.test.ts',
  'e2e/faults/two-copies.test.ts',
  'e2e/faults/redis-cluster.test.ts',
  'e2e/faults/postgres-restart.test.ts',
];

const Base = TestSequencer.default ?? TestSequencer;

export default class SpreadSequencer extends Base {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const rank = (test) => HEAVY.indexOf(relative(test.context.config.rootDir, test.path));
    const heavy = sorted.filter((test) => rank(test) !== -1).sort((a, b) => rank(a) - rank(b));
    const light = sorted.filter((test) => rank(test) === -1);
    if (heavy.length === 0) return sorted;
    // One heavy file, then its share of the light ones, and so on.
    const share = Math.ceil(light.length / heavy.length);
    return heavy.flatMap((test, i) => [test, ...light.slice(i * share, (i + 1) * share)]);
  }
}
