import { contactHoursWiderThanLaw, loadConfigOrExit } from '@leadhook/config';
import { runWorker } from '@leadhook/worker-runtime';
import { createWorker } from './worker.js';

const config = loadConfigOrExit();
const worker = createWorker({ config });
if (contactHoursWiderThanLaw(config.contactHours)) {
  // docs/operations.md, "Settings": a window wider than 08:00-21:00 is for development and tests only.
  worker.logger.warn(
    { contact_hours: config.contactHours.text },
    'CONTACT_HOURS is wider than 08:00-21:00: for development and tests only',
  );
}
runWorker(worker);
