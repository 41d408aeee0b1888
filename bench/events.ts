import crypto from 'node:crypto';
import http from 'node:http';
import { Client } from 'pg';
import { emptyUse, metered } from './cpu';
import { storeFairness } from './events-fairness';
import { FLIP, p99, receiver, resources, subscribeHealth, waitFor } from './events-lib';
import { connectedStore, developerKey, Figure, startBenchSandbox, startBenchService } from './lib';
import { DURATION_SECONDS } from './load';

/** The offered rate of changes, as the issue asks (1,000 changes/s). */
const RATE = 1000;
/** Connections whose health the changes flip: the resources, each with its own order of delivery. */
const RESOURCES = 200;
const BURST = 20_000;

/**
 * Events to a local receiver: changes (a connection's health flips, recorded by its trigger in the change's own
 * transaction) committed at 1,000/s across 200 resources; p99 from the commit to the receiver, against the floor any
 * outbox has (the commit to the LISTEN notification in the benchmark process); then a burst drained as fast as the
 * delivery loop goes, against the same receiver fed directly by plain POSTs. CPU per event from /proc.
 */
export async function eventsBench(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  const sink = await receiver();
  // Test events make store A's backlog in the fairness figure: more than a store's usual budget of them.
  const svc = await startBenchService(
    databaseUrl,
    {
      EVENT_TARGETS_ALLOW_PRIVATE: 'true',
      EVENT_POLL_MS: '1000',
      EVENT_SENDS_PER_MINUTE: '100000',
      ...(process.env.BENCH_EVENTS_SLOTS ? { EVENT_SUBSCRIPTION_CONCURRENCY: process.env.BENCH_EVENTS_SLOTS } : {}),
    },
    { sandboxUrl: sandbox.baseUrl, profile: true },
  );
  const listener = new Client({ connectionString: databaseUrl });
  // The service's own processes end first; idle clients cut then must not end the benchmark.
  svc.db.on('error', () => undefined);
  listener.on('error', () => undefined);
  try {
    const { key } = await developerKey(svc);
    const { storeId, connectionId } = await connectedStore(svc, sandbox, key);
    const ids = await resources(svc, storeId, connectionId, RESOURCES);
    const { secret } = await subscribeHealth(svc, key, storeId, sink.url);

    process.stderr.write(`bench events: ${ids.length} resources, subscribed\n`);
    const committed = new Map<string, { at: number; n: number }>();
    const notified: number[] = [];
    await listener.connect();
    await listener.query('LISTEN event_outbox');
    listener.on('notification', () => notified.push(performance.now()));

    // Paced: every tick writes the changes due by then (one statement, one transaction), round robin over the resources.
    const paced = emptyUse(svc.profileDir);
    let written = 0;
    let batches = 0;
    const commitTimes: number[] = [];
    const pacedRun = await metered(svc.pid, paced, async () => {
      const start = performance.now();
      while (performance.now() - start < DURATION_SECONDS * 1000) {
        const due = Math.floor(((performance.now() - start) / 1000) * RATE) - written;
        if (due <= 0) {
          await new Promise((r) => setTimeout(r, 2));
          continue;
        }
        const n = Math.min(due, ids.length);
        const chosen = Array.from({ length: n }, (_, i) => ids[(written + i) % ids.length]);
        const marker = `b${batches++}`;
        await svc.db.query(FLIP, [chosen, marker]);
        const at = performance.now();
        committed.set(marker, { at, n });
        commitTimes.push(at);
        written += n;
      }
      const elapsed = (performance.now() - start) / 1000;
      await waitFor(() => sink.arrivals.length >= written, 120_000, 'the paced events');
      return { total: written, elapsed };
    });
    const latencies = sink.arrivals.filter((a) => committed.has(a.marker)).map((a) => Math.max(0, a.at - committed.get(a.marker)!.at));
    const floor = commitTimes.map((c, i) => Math.max(0, (notified[i] ?? c) - c));
    const offered = written / pacedRun.elapsed;

    process.stderr.write(`bench events: paced ${written} changes delivered\n`);
    // Burst: BURST changes committed at once, drained by the delivery loop; events/s from the first to the last arrival.
    const before = sink.arrivals.length;
    const burst = emptyUse(svc.profileDir);
    const burstRun = await metered(svc.pid, burst, async () => {
      for (let i = 0; i < BURST / ids.length; i++) await svc.db.query(FLIP, [ids, `burst${i}`]);
      await waitFor(() => sink.arrivals.length >= before + BURST, 180_000, 'the burst');
      const got = sink.arrivals.slice(before);
      return { total: BURST, seconds: (got[got.length - 1].at - got[0].at) / 1000 };
    });
    const delivered = BURST / burstRun.seconds;

    process.stderr.write(`bench events: burst drained\n`);
    // The same receiver fed directly: signed POSTs of a body of the same size, 32 in flight (a subscription's slots).
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      type: 'connection.healthChanged',
      createdAt: new Date().toISOString(),
      storeId,
      data: { health: { message: 'direct' }, pad: 'x'.repeat(900) },
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const direct = async () => {
      const h = crypto
        .createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
        .update(body)
        .digest('base64');
      await new Promise<void>((resolve, reject) => {
        const req = http.request(sink.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'webhook-signature': `v1,${h}` } }, (res) =>
          res.resume().on('end', resolve),
        );
        req.on('error', reject);
        req.end(body);
      });
    };
    const t0 = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (sent < BURST) {
          sent++;
          await direct();
        }
      }),
    );
    const bare = BURST / ((performance.now() - t0) / 1000);
    process.stderr.write(`bench events: direct POSTs ${Math.round(bare)}/s\n`);
    agent.destroy();

    const command = 'npm run bench -- events';
    process.stderr.write("bench events: one store beside another's hanging receivers\n");
    const fairness = await storeFairness(svc, sandbox, command);
    const cpu = (u: typeof paced) => `${Math.round(u.processUs / u.requests)} µs`;
    return [
      {
        name: 'Events: p99 from the committed change to the receiver, at 1,000 changes/s',
        subject: { value: p99(latencies), unit: 'ms p99' },
        baseline: { value: p99(floor), unit: 'ms p99' },
        baselineLabel: 'commit to the LISTEN notification in the benchmark process',
        ratio: p99(latencies) / Math.max(1, p99(floor)),
        command,
        cpu: { service: paced, per: 'event' },
        notes:
          `${written.toLocaleString('en')} changes in ${batches.toLocaleString('en')} transactions over ${RESOURCES} connections (${Math.round(offered).toLocaleString('en')} changes/s achieved): each flips a connection's health, whose trigger writes a \`connection.healthChanged\` event in the same transaction; one subscription, a local receiver answering 204. ` +
          `Latency: from the moment the change's UPDATE returned (committed) to the receiver's reading of the whole body, signed, rendered as GET answers the connection; median ${Math.round([...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)])} ms. Baseline: the same commits to the outbox's NOTIFY reaching a listener, the floor of any outbox-based delivery. Service CPU ${cpu(paced)} per event (role all: HTTP idle, the delivery loop working).`,
      },
      {
        name: 'Events delivered per second to a local receiver (a burst of 20,000 drained)',
        subject: { value: Math.round(delivered), unit: 'events/s' },
        baseline: { value: Math.round(bare), unit: 'POSTs/s' },
        baselineLabel: 'the same receiver fed directly by signed POSTs, 32 in flight',
        ratio: delivered / bare,
        command,
        cpu: { service: burst, per: 'event' },
        notes: `${BURST.toLocaleString('en')} changes committed at once over ${RESOURCES} resources (in order per resource, at most 32 in flight for the subscription); events/s from the first arrival to the last. Service CPU ${cpu(burst)} per event: fan-out, claim, render, sign, send and the outcome, batched.`,
      },
      fairness,
    ];
  } finally {
    await listener.end().catch(() => undefined);
    await svc.stop();
    await sink.close();
    await sandbox.close();
  }
}
