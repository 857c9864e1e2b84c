import type { ActivityRecorder } from '@leadhook/activities';
import {
  ACTIVITY_CATALOG,
  ACTIVITY_DATA_MAX_BYTES,
  type Activity,
  type ActivityCatalog,
  type ActivityCreate,
  type ActivityReport,
  type ActivityType,
  activitySchema,
  catalogEntry,
  RESERVED_LABELS,
  reservedLabel,
} from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { type ErrorDetail, storedValidator } from './validation.js';

/** An activity row as read here (the columns presentActivity needs). */
interface ActivityRow {
  id: string;
  leadId: string;
  activityType: string;
  activityLabel: string;
  note: string;
  data: unknown;
  occurredAt: Date;
}

function isActivityType(value: string): value is ActivityType {
  return value === 'event' || value === 'outcome';
}

const validateStoredData = storedValidator(activitySchema.properties.data);

export function presentActivity(row: ActivityRow): Activity {
  const data = validateStoredData(row.data);
  // The activities_activity_type_check constraint and the activity path keep these in shape.
  if (!isActivityType(row.activityType) || !data.ok) {
    throw new Error(`activity ${row.id} has an out-of-contract type or data`);
  }
  return {
    id: row.id,
    lead_id: row.leadId,
    activity_type: row.activityType,
    activity_label: row.activityLabel,
    activity_note: row.note,
    data: data.value,
    occurred_at: row.occurredAt.toISOString(),
  };
}

/** `GET /activity_catalog`: every label, in the catalog's order, then the reserved ones, in one page. */
export function activityCatalog(): ActivityCatalog {
  return {
    data: [...ACTIVITY_CATALOG, ...RESERVED_LABELS].map(({ label, type, group, meaning }) => ({
      label,
      type,
      group,
      meaning,
    })),
    next_cursor: null,
  };
}

function labelsOf(type: ActivityType): string {
  return ACTIVITY_CATALOG.filter((e) => e.type === type)
    .map((e) => e.label)
    .join(', ');
}

const otherType = (type: ActivityType): ActivityType => (type === 'event' ? 'outcome' : 'event');

/**
 * The checks JSON Schema cannot express: the label against the catalog for its
 * type (with a message naming what is allowed), message_received's `data.body`
 * (without it a STOP could not be recognised), and the size of `data`, which
 * travels in every webhook delivery.
 */
export function activityProblems(input: ActivityCreate): ErrorDetail[] {
  const { activity_type: type, activity_label: label } = input;
  const problems: ErrorDetail[] = [];
  if (!catalogEntry(type, label)) {
    const other = otherType(type);
    problems.push(
      catalogEntry(other, label)
        ? {
            field: 'activity_label',
            code: 'type_mismatch',
            message: `"${label}" is an ${other} label, not an ${type} label: send activity_type "${other}". ${type === 'event' ? 'Event' : 'Outcome'} labels: ${labelsOf(type)}.`,
          }
        : reservedLabel(label)
          ? {
              field: 'activity_label',
              code: 'reserved_label',
              message: `"${label}" is reserved: leadhook sends it by itself (see GET /api/v1/activity_catalog); it cannot be reported.`,
            }
          : {
              field: 'activity_label',
              code: 'unknown_label',
              message: `"${label}" is not a label of the activity catalog (GET /api/v1/activity_catalog). ${type === 'event' ? 'Event' : 'Outcome'} labels: ${labelsOf(type)}.`,
            },
    );
  }
  if (type === 'event' && label === 'message_received' && typeof input.data?.body !== 'string') {
    problems.push({
      field: 'data.body',
      code: 'required',
      message: 'data.body is required for message_received: the text of the reply.',
    });
  }
  if (input.data !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(input.data));
    if (bytes > ACTIVITY_DATA_MAX_BYTES) {
      problems.push({
        field: 'data',
        code: 'too_long',
        message: `data is too long (${bytes} bytes as JSON; at most ${ACTIVITY_DATA_MAX_BYTES}).`,
      });
    }
  }
  return problems;
}

export interface ActivitiesContext {
  prisma: PrismaClient;
  recorder: ActivityRecorder;
}

export type ReportResult =
  | { kind: 'recorded'; report: ActivityReport }
  | { kind: 'invalid'; details: ErrorDetail[] }
  | { kind: 'not_found' }
  | { kind: 'outcome_exists'; outcome: string };

/**
 * `POST /leads/{id}/activities`: an activity reported from outside goes through
 * the one activity path (ActivityRecorder), exactly like the worker's own, so the
 * outcome rule, the STOP handling and the webhooks are the same.
 */
export async function reportActivity(
  ctx: ActivitiesContext,
  accountId: string,
  leadId: string,
  input: ActivityCreate,
): Promise<ReportResult> {
  const problems = activityProblems(input);
  if (problems.length > 0) return { kind: 'invalid', details: problems };
  const result = await ctx.recorder.record(
    {
      leadId,
      type: input.activity_type,
      label: input.activity_label,
      ...(input.data !== undefined ? { data: input.data } : {}),
    },
    { accountId },
  );
  switch (result.kind) {
    case 'lead_not_found':
      return { kind: 'not_found' };
    case 'outcome_exists':
      return { kind: 'outcome_exists', outcome: result.outcome };
    case 'unknown_label':
      // activityProblems checked the catalog already; kept for a catalog change mid-flight.
      return {
        kind: 'invalid',
        details: [{ field: 'activity_label', code: 'unknown_label', message: result.message }],
      };
    case 'recorded':
      break;
  }
  const ids = result.activities.map((a) => a.id);
  const rows = await ctx.prisma.activity.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((row) => [row.id, presentActivity(row)]));
  const recorded = ids.map((id) => {
    const activity = byId.get(id);
    if (!activity) throw new Error(`recorded activity ${id} was not found after commit`);
    return activity;
  });
  // The reported activity is the one of the requested type and label; whatever
  // else the path recorded (stopped, opted_out) is what the report caused.
  const primary = recorded.find(
    (a) => a.activity_type === input.activity_type && a.activity_label === input.activity_label,
  );
  if (!primary) throw new Error('the activity path did not record the reported activity');
  return {
    kind: 'recorded',
    report: { ...primary, caused: recorded.filter((a) => a !== primary) },
  };
}
