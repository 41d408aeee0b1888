/**
 * Developers' webhook receivers, as real HTTP servers in the soak's process: some fine, some answering 500s now and
 * then, some that sometimes never answer (the service's time limit ends the attempt). Each records every delivery
 * it got, in arrival order, and whether its signature was good: the events check compares that with the outbox.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

export type Behaviour = 'fine' | 'flaky' | 'hanging';

export interface Delivery {
  /** The `webhook-id` header: the event's id, the same on every attempt. */
  eventId: string;
  type: string;
  /** What this receiver answered (0: it never answered). */
  status: number;
  signed: boolean;
  /** Arrival order across every receiver of the run. */
  order: number;
}

let arrivals = 0;

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the base64 key after `whsec_`. */
export function signatureOk(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const want = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return header.split(' ').some((s) => s === `v1,${want}`);
}

export class Receiver {
  readonly deliveries: Delivery[] = [];
  secret = '';
  private server: http.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  url = '';

  constructor(
    readonly name: string,
    readonly behaviour: Behaviour,
    private readonly random: () => number,
  ) {}

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks/${this.name}`;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const header = (name: string) => String(req.headers[name] ?? '');
    let type = '';
    try {
      type = String((JSON.parse(body) as { type?: unknown }).type ?? '');
    } catch {
      /* recorded with no type: the check names it */
    }
    const d: Delivery = { eventId: header('webhook-id'), type, status: 0, signed: false, order: ++arrivals };
    d.signed = !!this.secret && signatureOk(this.secret, d.eventId, header('webhook-timestamp'), body, header('webhook-signature'));
    this.deliveries.push(d);
    const roll = this.random();
    if (this.behaviour === 'hanging' && roll < 0.15) {
      // Never answers: the service's time limit (EVENT_DELIVERY_TIMEOUT_MS) ends the attempt; the socket goes later.
      setTimeout(() => res.destroy(), 10000).unref();
      return;
    }
    d.status = this.behaviour === 'flaky' && roll < 0.3 ? 500 : 200;
    res.writeHead(d.status, { 'content-type': 'text/plain' }).end(d.status === 200 ? 'ok' : 'not now');
  }

  /** The deliveries it answered 2xx and whose signature was good. */
  accepted(): Delivery[] {
    return this.deliveries.filter((d) => d.status >= 200 && d.status < 300 && d.signed);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A seeded generator (mulberry32), so a run's choices can be told apart from another's by its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
