import { Ajv, type ValidateFunction } from 'ajv';
import type { FromSchema } from 'json-schema-to-ts';

/**
 * The payload of each queue's jobs: ids only, since a consumer reloads the row
 * (PostgreSQL is the truth, the job only its doorbell). A consumer checks the
 * payload before it uses it: a job whose payload does not match was not written
 * by this code (another version, a hand-made add) and would fail the same way on
 * every retry.
 */
const id = { type: 'string', minLength: 1, maxLength: 100 } as const;
const count = { type: 'integer', minimum: 0 } as const;

export const jobPayloadSchemas = {
  /** Enroll an accepted lead in its source's playbook. */
  enrollment: {
    title: 'EnrollmentJob',
    type: 'object',
    required: ['lead_id'],
    properties: { lead_id: id },
    additionalProperties: false,
  },
  /** Fan an activity out to its subscriptions. */
  activity: {
    title: 'ActivityJob',
    type: 'object',
    required: ['activity_id'],
    properties: { activity_id: id },
    additionalProperties: false,
  },
  /** Run step `step` (the enrollment's current_step when enqueued) of a play. */
  'playbook-step': {
    title: 'PlaybookStepJob',
    type: 'object',
    required: ['enrollment_id', 'step'],
    properties: { enrollment_id: id, step: count },
    additionalProperties: false,
  },
  /** Try attempt `attempt` (the row's attempt_count when enqueued) of a webhook delivery. */
  delivery: {
    title: 'DeliveryJob',
    type: 'object',
    required: ['delivery_id', 'attempt'],
    properties: { delivery_id: id, attempt: count },
    additionalProperties: false,
  },
} as const;

/** The queues that carry jobs, by name. */
export type JobTopic = keyof typeof jobPayloadSchemas;

/**
 * Each queue's job payload, derived from its schema. An interface of named
 * members, each resolved once: a mapped FromSchema type indexed by a generic
 * topic is too deep for the compiler wherever BullMQ's generics meet it.
 */
export interface JobPayloads {
  enrollment: EnrollmentJob;
  activity: ActivityJob;
  'playbook-step': PlaybookStepJob;
  delivery: DeliveryJob;
}
type EnrollmentJob = FromSchema<typeof jobPayloadSchemas.enrollment>;
type ActivityJob = FromSchema<typeof jobPayloadSchemas.activity>;
type PlaybookStepJob = FromSchema<(typeof jobPayloadSchemas)['playbook-step']>;
type DeliveryJob = FromSchema<typeof jobPayloadSchemas.delivery>;

const ajv = new Ajv({ strict: true });
const validators: Record<JobTopic, ValidateFunction> = {
  enrollment: ajv.compile(jobPayloadSchemas.enrollment),
  activity: ajv.compile(jobPayloadSchemas.activity),
  'playbook-step': ajv.compile(jobPayloadSchemas['playbook-step']),
  delivery: ajv.compile(jobPayloadSchemas.delivery),
};

/**
 * Why `data` is not a `topic` job's payload (undefined: it is). The text names
 * the fields and rules only, never a value, so it can be logged.
 */
export function jobPayloadProblem(topic: JobTopic, data: unknown): string | undefined {
  const validate = validators[topic];
  if (validate(data)) return undefined;
  return ajv.errorsText(validate.errors, { dataVar: 'payload' });
}

/** Whether `data` is a `topic` job's payload. */
export function isJobPayload<T extends JobTopic>(topic: T, data: unknown): data is JobPayloads[T] {
  return jobPayloadProblem(topic, data) === undefined;
}
