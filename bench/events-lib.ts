// What the events benchmarks share: a receiver that records arrivals, the change they make, and their arithmetic.
import http from 'node:http';
import type { BenchService } from './lib';

export interface Arrival {
  marker: string;
  at: number;
}

/** A local receiver that answers 204 at once and keeps each delivery's marker (the health message) and arrival time. */
export async function receiver(): Promise<{ url: string; arrivals: Arrival[]; close(): Promise<void> }> {
  const arrivals: Arrival[] = [];
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ marker: String(event.data?.health?.message ?? ''), at });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, arrivals, close: () => new Promise((r) => server.close(() => r())) };
}

/** One committed change per resource named: its health status flips, and its message carries the batch marker. */
export const FLIP = `UPDATE supplier_connections SET health = jsonb_build_object('status', CASE WHEN health->>'status' = 'healthy' THEN 'unhealthy' ELSE 'healthy' END,
               'checkedAt', now(), 'latencyMs', 0, 'message', $2::text) WHERE id = ANY($1)`;

export const p99 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]) : NaN;
};

export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`bench events: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `n` resources of one store: its connection and copies of it (disconnected, so the one-active rule holds); their ids. */
export async function resources(svc: BenchService, storeId: string, connectionId: string, n: number): Promise<string[]> {
  await svc.db.query(
    `INSERT INTO supplier_connections SELECT (jsonb_populate_record(NULL::supplier_connections, to_jsonb(c) || jsonb_build_object('id', gen_random_uuid(), 'disconnected_at', now()))).*
       FROM supplier_connections c, generate_series(2, $2) WHERE c.id = $1`,
    [connectionId, n],
  );
  return (await svc.db.query('SELECT id FROM supplier_connections WHERE store_id = $1', [storeId])).rows.map((r) => r.id as string);
}

/** Subscribes an address to a store's connection health events; answers the subscription's id and secret. */
export async function subscribeHealth(svc: BenchService, key: string, storeId: string, url: string): Promise<{ id: string; secret: string }> {
  const res = await fetch(`${svc.baseUrl}/api/store-suppliers/${storeId}/event-subscriptions`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, eventTypes: ['connection.healthChanged'] }),
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: { id: string; secret: string } }).result;
}
