import { workerEnv } from './settings.js';
import { waitFor } from './wait.js';

/** A worker process as its createWorker makes it, as far as a test starts and stops it. */
export interface TestWorker {
  start(): Promise<{ port: number }>;
  stop(): Promise<unknown>;
}

/** One worker a test started: its port, queue prefix, and its component's handle once started. */
export interface StartedWorker<W, H> {
  worker: W;
  port: number;
  prefix: string;
  /** Waits until the worker's component has started and answers its handle. */
  handle(): Promise<H>;
}

/**
 * A test file's way to start one kind of worker process on its test database:
 * `create` builds it from its settings (workerEnv: the database, the local Redis,
 * a queue prefix of its own) with `onStarted` for its component; each worker
 * started, or handed to `stopAfterTest`, is stopped after the test.
 */
export function useTestWorkers<W extends TestWorker, H>(
  db: { url: string },
  create: (settings: Record<string, string>, onStarted: (handle: H) => void) => W,
) {
  const running: TestWorker[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
  });
  return {
    stopAfterTest(worker: TestWorker): void {
      running.push(worker);
    },
    /** Starts a worker on port 0 with `env` on top of its test settings. */
    async start(env: Record<string, string> = {}): Promise<StartedWorker<W, H>> {
      const settings = workerEnv(db.url, env);
      let started: H | undefined;
      const worker = create(settings, (h) => {
        started = h;
      });
      running.push(worker);
      const { port } = await worker.start();
      return {
        worker,
        port,
        prefix: settings.QUEUE_PREFIX,
        handle: () => waitFor(async () => started),
      };
    },
  };
}
