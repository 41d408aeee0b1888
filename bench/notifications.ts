import crypto from 'node:crypto';
import { signSandboxNotification } from '../server/sandboxes/supplier';
import { connectedStore, developerKey, Figure, startBenchSandbox, startBenchService } from './lib';
import { DURATION_SECONDS, Load, LoadRequest, loadOn } from './load';

/** Pre-signed per second of load; more than this machine's service answers, so the pool never runs dry. */
const SIGNED_PER_SECOND = 10_000;

interface Signed {
  body: string;
  signature: string;
}

/**
 * Signed `order.updated` notifications, each with its own event id (a replay is refused with 400).
 * `orderOf(i)` chooses the supplier order each one is about.
 */
function signedPool(secret: string, count: number, orderOf: (i: number) => string): Signed[] {
  const run = crypto.randomBytes(4).toString('hex');
  const t = Math.floor(Date.now() / 1000);
  const createdAt = new Date().toISOString();
  const pool: Signed[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({
      id: `evt_${run}_${i}`,
      type: 'order.updated',
      createdAt,
      data: { orderId: orderOf(i), orderNumber: `B-${i}`, status: 'shipped' },
    });
    pool[i] = { body, signature: signSandboxNotification(secret, body, t) };
  }
  return pool;
}

/**
 * autocannon requests that take the next pre-signed notification on every send. Should the pool run dry
 * (a much faster machine), the rest are signed as they go, still each distinct.
 */
function notificationRequests(path: string, secret: string, pool: Signed[], orderOf: (i: number) => string): { requests: LoadRequest[]; used: () => number } {
  let next = 0;
  const run = crypto.randomBytes(4).toString('hex');
  return {
    used: () => next,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json' },
        setupRequest(req) {
          const i = next++;
          let n = pool[i];
          if (!n) {
            const body = JSON.stringify({
              id: `evt_${run}_late_${i}`,
              type: 'order.updated',
              createdAt: new Date().toISOString(),
              data: { orderId: orderOf(i), orderNumber: `B-${i}`, status: 'shipped' },
            });
            n = { body, signature: signSandboxNotification(secret, body, Math.floor(Date.now() / 1000)) };
          }
          return { ...req, body: n.body, headers: { ...req.headers, 'X-Sandbox-Signature': n.signature } };
        },
      },
    ],
  };
}

function checked(what: string, l: Load): Load {
  if (l.non2xx || l.errors) throw new Error(`${what}: ${l.non2xx} non-2xx answers and ${l.errors} errors/time-outs out of ${l.total}`);
  if (!l.total) throw new Error(`${what}: no request answered`);
  return l;
}

/**
 * Supplier notifications accepted per second: verified against the connection's own signing secret,
 * recorded (event id receipt, last_webhook_at) and a read-back enqueued; against GET /healthz of the same server.
 */
export async function notifications(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  // Role `api`: the HTTP side alone, so the figure is the cost of accepting. With workers in the same process the
  // order read-backs would run during the load (and take the waiting job the coalescing case relies on).
  const svc = await startBenchService(databaseUrl, {}, { sandboxUrl: sandbox.baseUrl, publicAddress: true, args: ['--role', 'api'], profile: true });
  try {
    const { key } = await developerKey(svc);
    const conn = await connectedStore(svc, sandbox, key);
    if (!conn.webhookUrl) throw new Error('the connection has no webhook address (PUBLIC_BASE_URL not set?)');
    // Registering the same address again answers the secret the sandbox already signs with.
    const { signingSecret } = await sandbox.v1<{ signingSecret: string }>(conn.liveKey, 'PUT', '/webhook', { url: conn.webhookUrl });
    const path = new URL(conn.webhookUrl).pathname;

    // One by hand first: a wrong set-up must fail here, not as 100 % non-2xx under load.
    const [probe] = signedPool(signingSecret, 1, () => 'SBX-O-PROBE');
    const res = await fetch(conn.webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': probe.signature },
      body: probe.body,
    });
    if (res.status !== 200) throw new Error(`a signed notification was answered ${res.status}: ${await res.text()}`);

    const baseline = checked('GET /healthz', await loadOn({ url: `${svc.baseUrl}/healthz`, ...svc }));

    const count = DURATION_SECONDS * SIGNED_PER_SECOND;
    const distinct = (i: number) => `SBX-O-BENCH-${i}`;
    const spread = notificationRequests(path, signingSecret, signedPool(signingSecret, count, distinct), distinct);
    const jobsBefore = await orderJobs(svc.db, conn.connectionId);
    const subject = checked('notifications, one order each', await loadOn({ url: svc.baseUrl, opts: { requests: spread.requests }, ...svc }));
    const enqueued = (await orderJobs(svc.db, conn.connectionId)) - jobsBefore;
    // Every accepted notification about a new order must have queued its own read-back.
    if (enqueued < subject.total) throw new Error(`${subject.total} notifications accepted but only ${enqueued} read-backs queued`);

    const same = () => 'SBX-O-BENCH-SAME';
    const coalesced = notificationRequests(path, signingSecret, signedPool(signingSecret, count, same), same);
    const sameOrder = checked('notifications, one order', await loadOn({ url: svc.baseUrl, opts: { requests: coalesced.requests }, ...svc }));
    const late = Math.max(0, spread.used() - count) + Math.max(0, coalesced.used() - count);

    const baselineLabel = 'GET /healthz (unauthenticated Koa route, same server)';
    const command = 'npm run bench -- notifications';
    const lateNote = late ? ` ${late.toLocaleString('en')} requests outran the pre-signed pool and were signed during the load.` : '';
    return [
      {
        name: 'Supplier notifications accepted (POST /api/store-suppliers/webhook/sandbox/:id, every one about a different order)',
        subject,
        baseline,
        baselineLabel,
        ratio: subject.reqPerSec / baseline.reqPerSec,
        command,
        cpu: { service: subject.cpu!, bare: baseline.cpu!, per: 'notification' },
        notes:
          `Ratio = notifications accepted per second ÷ /healthz requests per second on the same server (1 would mean verifying and queueing is free). ` +
          `Each request has its own event id and HMAC signature (pre-signed, timestamp = start of the run) and names a new supplier order, so every one loads the connection, verifies the signature, and is answered only once its receipt, last_webhook_at and pg-boss read-back job are committed, written with the other requests waiting at that moment in one transaction (group commit); ${enqueued.toLocaleString('en')} jobs were queued, none refused. The service runs role \`api\` (no worker draining the read-backs during the load).${lateNote}`,
      },
      {
        name: 'Supplier notifications accepted (all about one order: coalesced into the one waiting read-back)',
        subject: sameOrder,
        baseline,
        baselineLabel,
        ratio: sameOrder.reqPerSec / baseline.reqPerSec,
        command,
        cpu: { service: sameOrder.cpu!, bare: baseline.cpu!, per: 'notification' },
        notes:
          'Ratio as above. Same work except the read-back insert: the `stately` queue already holds a job for the order, so pg-boss answers null instead of queueing another.',
      },
    ];
  } finally {
    await svc.stop();
    await sandbox.close();
  }
}

async function orderJobs(db: import('pg').Pool, connectionId: string): Promise<number> {
  const r = await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'readback.supplier-order' AND data->>'connectionId' = $1`, [connectionId]);
  return r.rows[0].n as number;
}
