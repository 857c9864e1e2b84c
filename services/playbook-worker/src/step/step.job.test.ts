import { stepLogLevel } from './step.job.js';
import type { StepResult } from './step.runner.js';

const at = new Date('2026-11-26T15:00:00Z');

describe('stepLogLevel: what a new user reads at the default level', () => {
  it.each<[string, StepResult, 'info' | 'debug']>([
    ['a deferral first recorded', { kind: 'deferred', until: at, recorded: true }, 'info'],
    ['the same deferral again', { kind: 'deferred', until: at, recorded: false }, 'debug'],
    ['a job not due yet', { kind: 'not_due', dueAt: at }, 'debug'],
    ['a play gone', { kind: 'skipped', reason: 'not_found' }, 'debug'],
    ['a play no longer active', { kind: 'skipped', reason: 'not_active' }, 'debug'],
    ['a job for another step', { kind: 'skipped', reason: 'other_step' }, 'debug'],
    ['a step another worker took', { kind: 'skipped', reason: 'claimed_elsewhere' }, 'debug'],
  ])('%s: %s', (_what, result, level) => {
    expect(stepLogLevel(result)).toBe(level);
  });
});
