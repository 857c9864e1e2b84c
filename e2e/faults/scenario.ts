import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '@leadhook/testkit';
import { ensureBuilt } from '../support.js';
import { LeadStream, Subscriber } from './load.js';
import { createFixture, type Fixture, Stack, type StackOptions } from './stack.js';
import { type Findings, findings, settle } from './verify.js';

/**
 * What every fault test sets up: the subscriber, the four processes (and any
 * extra copies), the account's playbook, source and subscription; then load,
 * the wait for the pipeline to catch up, and the checks.
 */
export class Scenario {
  /** A test database this scenario made for itself (startOnTestDatabase): dropped by close. */
  private database: TestDatabase | undefined;

  private constructor(
    readonly stack: Stack,
    readonly subscriber: Subscriber,
    readonly fixture: Fixture,
  ) {}

  /**
   * The usual start of a fault test: the built services on a fresh test database
   * (dropped by close) and the machine's Redis (or `redisUrl`), with queue keys
   * under a prefix of this run (`e2e-<tag>-…`).
   */
  static async startOnTestDatabase(
    tag: string,
    options: { redisUrl?: string; workerCopies?: number; env?: Record<string, string> } = {},
  ): Promise<Scenario> {
    ensureBuilt();
    const database = await createTestDatabase();
    try {
      const scenario = await Scenario.start({
        databaseUrl: database.url,
        redisUrl: options.redisUrl ?? TEST_REDIS_URL,
        queuePrefix: `e2e-${tag}-${process.pid}-${Date.now()}`,
        workerCopies: options.workerCopies ?? 1,
        ...(options.env ? { env: options.env } : {}),
      });
      scenario.database = database;
      return scenario;
    } catch (err) {
      await database.drop();
      throw err;
    }
  }

  static async start(options: StackOptions & { workerCopies?: number }): Promise<Scenario> {
    const subscriber = new Subscriber();
    await subscriber.start();
    const stack = new Stack(options);
    try {
      await stack.startAll();
      for (let i = 1; i < (options.workerCopies ?? 1); i++) {
        await stack.startTogether(['playbook-worker', 'webhook-worker'], i);
      }
      const fixture = await createFixture(
        options.databaseUrl,
        await stack.port('api'),
        subscriber.url,
      );
      return new Scenario(stack, subscriber, fixture);
    } catch (err) {
      // No scenario to close: stop what did start, or it outlives the test run
      // (the processes are killed first; a Redis that is away keeps its keys).
      await stack.dispose().catch(() => {});
      await subscriber.stop();
      throw err;
    }
  }

  /** A seller posting to the source through the intake's current port. */
  private readonly streams: LeadStream[] = [];

  stream(tag: string, rate: number): LeadStream {
    const stream = new LeadStream({
      url: () => `${this.stack.intakeBase}${this.fixture.postPath}`,
      rate,
      tag,
    });
    this.streams.push(stream);
    return stream;
  }

  /** Waits for the pipeline to catch up; on a timeout the processes' output says why. */
  async settle(timeoutMs: number): Promise<void> {
    try {
      await settle(this.stack.options.databaseUrl, this.subscriber, timeoutMs);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${this.stack.output()}`);
    }
  }

  /** What was lost or duplicated (CLEAN when nothing). */
  findings(accepted: readonly string[]): Promise<Findings> {
    return findings(this.stack.options.databaseUrl, accepted, this.subscriber);
  }

  /**
   * Stops every process, drops the queues' keys (when `dropKeys`), the subscriber
   * and the test database it made.
   */
  async close(dropKeys = true): Promise<void> {
    // A test that failed mid-load leaves its stream posting: stop it, or its timer
    // keeps jest from exiting.
    await Promise.all(this.streams.map((stream) => stream.stop()));
    await (dropKeys ? this.stack.dispose() : this.stack.killAll());
    await this.subscriber.stop();
    await this.database?.drop();
    this.database = undefined;
  }
}
