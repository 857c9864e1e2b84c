export type {
  NewActivity,
  RecordedActivity,
  RecordedRow,
  RecordResult,
  SqlRunner,
  Tx,
} from './activity-path.js';
export {
  ActivityRecorder,
  activityIds,
  announce,
  catalogNote,
  inTransaction,
  MAX_ACTIVITIES_PER_RECORD,
  pgRunner,
  prismaRunner,
  recordActivity,
  recordActivityInTx,
  recordedActivities,
} from './activity-path.js';
