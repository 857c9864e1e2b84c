import { parseContactHours } from '@leadhook/config';
import { checkContactWindow } from '@leadhook/contact-window';
import { deferralInWords, labelInWords } from '../src/ui/format.js';

/**
 * A deferral in words (src/ui/format.ts) from the very reasons the contact-window
 * check writes into a contact_deferred activity's data (playbook-worker's defer): if
 * that wording changes, the dashboard's reading of it fails here.
 */
function deferredData(input: {
  phone: string;
  state: string;
  now: string;
  recentAttempts?: string[];
}) {
  const decision = checkContactWindow({
    phone: input.phone,
    state: input.state,
    contactHours: parseContactHours('08:00-21:00'),
    now: new Date(input.now),
    recentAttempts: (input.recentAttempts ?? []).map((at) => new Date(at)),
  });
  if (decision.allowed) throw new Error('the case must be outside the window');
  return {
    data: { step: 1, until: decision.until.toISOString(), reason: decision.reason },
    occurredAt: input.now,
  };
}

describe('a contact_deferred activity in words', () => {
  it('says the local opening time in the zone of the reason, and the state whose rule held it', () => {
    // 08:30 in Austin: inside CONTACT_HOURS, before the Texas window (09:00).
    const { data, occurredAt } = deferredData({
      phone: '+15125550100',
      state: 'TX',
      now: '2026-06-10T13:30:00Z',
    });
    expect(deferralInWords(data, occurredAt)).toEqual({
      summary: 'Waiting for the contact window: 09:00 local time (America/Chicago), Texas rules',
      reason: data.reason,
    });
  });

  it('adds the day when the window opens on another day (a holiday)', () => {
    const { data, occurredAt } = deferredData({
      phone: '+12055550100',
      state: 'AL',
      now: '2026-12-25T16:00:00Z',
    });
    expect(data.reason).toContain('Christmas');
    expect(deferralInWords(data, occurredAt).summary).toBe(
      'Waiting for the contact window: 08:00 local time on Saturday, Dec 26 (America/Chicago), Alabama rules',
    );
  });

  it('names the contact hours of this leadhook when they held the step', () => {
    const { data, occurredAt } = deferredData({
      phone: '+15125550100',
      state: 'CA',
      now: '2026-06-10T11:00:00Z',
    });
    expect(deferralInWords(data, occurredAt).summary).toBe(
      'Waiting for the contact window: 08:00 local time (America/Chicago), the contact hours of this leadhook',
    );
  });

  it('gives the reader’s own time when the reason names no zone (a cap on attempts)', () => {
    const { data, occurredAt } = deferredData({
      phone: '+13055550100',
      state: 'FL',
      now: '2026-06-10T16:00:00Z',
      recentAttempts: ['2026-06-10T13:00:00Z', '2026-06-10T14:00:00Z', '2026-06-10T15:00:00Z'],
    });
    expect(data.reason).toContain('FL allows at most 3');
    expect(deferralInWords(data, occurredAt).summary).toMatch(
      /^Waiting for the contact window until .+ \(your time\), Florida rules$/,
    );
  });

  it('says what it can from data without a reason, and nothing wrong from none', () => {
    expect(deferralInWords({ until: 'not a time' }, '2026-06-10T16:00:00Z')).toEqual({
      summary: 'Waiting for the contact window',
      reason: undefined,
    });
    expect(
      deferralInWords(
        { until: '2026-06-11T13:00:00.000Z', reason: 'quiet_hours' },
        '2026-06-10T16:00:00Z',
      ).summary,
    ).toMatch(/^Waiting for the contact window until .+ \(your time\)$/);
  });
});

describe('labels in words', () => {
  it('reads a catalog label as words', () => {
    expect(labelInWords('contact_deferred')).toBe('Contact deferred');
    expect(labelInWords('party_line_lead_initiated_call')).toBe('Party line lead initiated call');
  });
});
