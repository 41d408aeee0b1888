/** A developer's webhook receiver as a real HTTP server: it records every delivery, and can answer badly, hang or go down. */
import http from 'node:http';
import net from 'node:net';
import { freePort } from './harness';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  /** What this receiver answered (0: it never answered). */
  status: number;
  at: number;
}

/** How to answer one delivery: a status, or `hang` (never answer). */
export type Answer = number | 'hang';

export class Receiver {
  readonly received: Received[] = [];
  answer: (r: Received) => Answer = () => 200;
  private server: http.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private waiters: Array<() => void> = [];

  private constructor(readonly port: number) {}

  static async start(path = '/hooks'): Promise<Receiver & { url: string }> {
    const r = new Receiver(await freePort());
    await r.up();
    return Object.assign(r, { url: `http://127.0.0.1:${r.port}${path}` });
  }

  /** Listens (again) on its port. */
  async up(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const r: Received = { headers: req.headers, body, json, status: 0, at: Date.now() };
        const answer = this.answer(r);
        if (answer !== 'hang') {
          r.status = answer;
          res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        }
        this.received.push(r);
        for (const w of this.waiters.splice(0)) w();
      });
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** Stops listening and drops every open connection: the address refuses connections until `up`. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Deliveries this receiver answered with a 2xx. */
  accepted(): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  /** Waits until `check` holds of what was received, or fails after `timeoutMs`. */
  async until(check: (received: Received[]) => boolean, timeoutMs = 20000, what = 'deliveries'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.received)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${what}; received ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
