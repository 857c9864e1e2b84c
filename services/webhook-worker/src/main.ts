import { loadConfigOrExit } from '@leadhook/config';
import { runWorker } from '@leadhook/worker-runtime';
import { createWorker } from './worker.js';

const config = loadConfigOrExit();
runWorker(createWorker({ config }));
