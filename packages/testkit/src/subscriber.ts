import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  at: number;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Answer = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

/** A real local HTTP server standing in for a subscriber system. */
export class Subscriber {
  readonly received: ReceivedRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  answer: Answer = (_req, res) => {
    res.end('ok');
  };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(answer?: Answer): Promise<Subscriber> {
    let self: Subscriber | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!self) return;
        const sub = self;
        const entry: ReceivedRequest = {
          at: Date.now(),
          url: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        sub.received.push(entry);
        sub.inFlight++;
        sub.maxInFlight = Math.max(sub.maxInFlight, sub.inFlight);
        res.on('close', () => {
          sub.inFlight--;
        });
        void Promise.resolve(sub.answer(entry, res)).catch(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new Subscriber(server, `http://127.0.0.1:${port}/hook`);
    if (answer) self.answer = answer;
    return self;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** Received activity ids, in arrival order. */
  ids(): string[] {
    return this.received.map((r) => String(r.headers['webhook-id']));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
