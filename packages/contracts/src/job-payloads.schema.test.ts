import { isJobPayload, jobPayloadProblem, jobPayloadSchemas } from './job-payloads.schema.js';

describe('job payload schemas', () => {
  it('has one schema per queue', () => {
    expect(Object.keys(jobPayloadSchemas).sort()).toEqual([
      'activity',
      'delivery',
      'enrollment',
      'playbook-step',
    ]);
  });

  it('accepts the payloads the producers write', () => {
    expect(jobPayloadProblem('enrollment', { lead_id: 'lead_1' })).toBeUndefined();
    expect(jobPayloadProblem('activity', { activity_id: 'act_1' })).toBeUndefined();
    expect(jobPayloadProblem('playbook-step', { enrollment_id: 'enr_1', step: 0 })).toBeUndefined();
    expect(isJobPayload('delivery', { delivery_id: 'del_1', attempt: 3 })).toBe(true);
  });

  it.each([
    ['enrollment', {}],
    ['enrollment', { lead_id: '' }],
    ['enrollment', { lead_id: 42 }],
    ['enrollment', 'lead_1'],
    ['enrollment', null],
    ['activity', { activity_id: 'act_1', email: 'jane@example.com' }],
    ['playbook-step', { enrollment_id: 'enr_1', step: -1 }],
    ['playbook-step', { enrollment_id: 'enr_1', step: 1.5 }],
    ['playbook-step', { enrollment_id: 'enr_1' }],
    ['delivery', { delivery_id: 'del_1', attempt: '1' }],
  ] as const)('refuses a malformed %s payload: %j', (topic, data) => {
    expect(isJobPayload(topic, data)).toBe(false);
    expect(jobPayloadProblem(topic, data)).toMatch(/^payload/);
  });

  it('names the rule broken, never the value', () => {
    const problem = jobPayloadProblem('activity', {
      activity_id: 'jane@example.com',
      phone: '+15555550100',
    });
    expect(problem).toBeDefined();
    expect(problem).not.toContain('jane');
    expect(problem).not.toContain('5555550100');
  });
});
