export type { NewActivity, RecordedActivity, RecordResult, Tx } from './activity-path.js';
export { ActivityRecorder, announce, recordActivityInTx } from './activity-path.js';
