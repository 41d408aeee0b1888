import http from 'node:http';
import type { Socket } from 'node:net';
import { FLIP, p99, receiver, resources, subscribeHealth, waitFor } from './events-lib';
import { type BenchSandbox, type BenchService, connectedStore, developerKey, type Figure } from './lib';
import { DURATION_SECONDS } from './load';

/** Store B's offered changes: 100 a second over 20 connections (each resource's events go in order, one at a time). */
const B_RATE = 100;
const B_RESOURCES = 20;
/** Store A: seven receivers that never answer, and a backlog of test events spread over them. */
const HANGING = 7;
const BACKLOG = 350;

/** A receiver that takes every request and never answers; counts what it holds. */
async function hangingReceiver(): Promise<{ url: string; held(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let held = 0;
  const server = http.createServer(() => held++);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    held: () => held,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Store B's changes at B_RATE for the benchmark's duration; each change's latency from its commit to B's receiver. */
async function pacedLatencies(svc: BenchService, ids: string[], sink: Awaited<ReturnType<typeof receiver>>, label: string): Promise<number[]> {
  const committed = new Map<string, number>();
  const before = sink.arrivals.length;
  const start = performance.now();
  let written = 0;
  let batches = 0;
  while (performance.now() - start < DURATION_SECONDS * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * B_RATE) - written;
    if (due <= 0) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const n = Math.min(due, ids.length);
    const marker = `${label}${batches++}`;
    await svc.db.query(FLIP, [Array.from({ length: n }, (_, i) => ids[(written + i) % ids.length]), marker]);
    committed.set(marker, performance.now());
    written += n;
  }
  await waitFor(() => sink.arrivals.length >= before + written, 120_000, `store B's events (${label})`);
  return sink.arrivals
    .slice(before)
    .filter((a) => committed.has(a.marker))
    .map((a) => Math.max(0, a.at - committed.get(a.marker)!));
}

/**
 * One store's dead receivers against another store's deliveries: store B's p99 from commit to receiver while store A
 * holds seven receivers that never answer and a backlog of test events, against store B alone, in the same service.
 */
export async function storeFairness(svc: BenchService, sandbox: BenchSandbox, command: string): Promise<Figure> {
  const b = await developerKey(svc);
  const storeB = await connectedStore(svc, sandbox, b.key, 'Store B');
  const ids = await resources(svc, storeB.storeId, storeB.connectionId, B_RESOURCES);
  const sink = await receiver();
  await subscribeHealth(svc, b.key, storeB.storeId, sink.url);
  const hanging = await Promise.all(Array.from({ length: HANGING }, hangingReceiver));
  try {
    const alone = await pacedLatencies(svc, ids, sink, 'alone');
    process.stderr.write(`bench events: store B alone, p99 ${p99(alone)} ms\n`);

    const a = await developerKey(svc);
    const storeA = await connectedStore(svc, sandbox, a.key, 'Store A');
    const subs = [];
    for (const h of hanging) subs.push(await subscribeHealth(svc, a.key, storeA.storeId, h.url));
    for (let i = 0; i < BACKLOG; i++) {
      const res = await fetch(`${svc.baseUrl}/api/store-suppliers/${storeA.storeId}/event-subscriptions/${subs[i % HANGING].id}/test`, {
        method: 'POST',
        headers: { 'X-API-Key': a.key },
      });
      if (res.status !== 202) throw new Error(`test event: ${res.status} ${await res.text()}`);
    }
    await waitFor(() => hanging.reduce((n, h) => n + h.held(), 0) > 0, 30_000, "store A's receivers holding deliveries");
    const loaded = await pacedLatencies(svc, ids, sink, 'loaded');
    const held = hanging.reduce((n, h) => n + h.held(), 0);
    process.stderr.write(`bench events: store B beside store A, p99 ${p99(loaded)} ms (store A's receivers took ${held} requests)\n`);
    for (const s of subs)
      await fetch(`${svc.baseUrl}/api/store-suppliers/${storeA.storeId}/event-subscriptions/${s.id}`, {
        method: 'PATCH',
        headers: { 'X-API-Key': a.key, 'Content-Type': 'application/json' },
        body: '{"enabled":false}',
      });
    return {
      name: "Events: one store's p99 beside another store's seven hanging receivers and backlog",
      subject: { value: p99(loaded), unit: 'ms p99' },
      baseline: { value: p99(alone), unit: 'ms p99' },
      baselineLabel: 'the same store alone, same run',
      ratio: p99(loaded) / Math.max(1, p99(alone)),
      command,
      notes:
        `Store B commits ${B_RATE} changes/s over ${B_RESOURCES} connections for ${DURATION_SECONDS} s, alone and then while store A has ${HANGING} subscriptions to receivers that take the request and never answer (each attempt waits out the 5 s time limit) and ${BACKLOG} test events due to them. ` +
        `Store A holds at most its share of the delivery slots (EVENT_STORE_CONCURRENCY, 50 of 200), and the claim gives stores turns; store A's receivers took ${held} requests meanwhile. Latency: commit to store B's receiver, as in the first figure.`,
    };
  } finally {
    for (const h of hanging) await h.close();
    await sink.close();
  }
}
