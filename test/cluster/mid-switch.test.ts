/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * What a client sees while Patroni switches the primary (issue 56, items 2, 3 and 4), on a synchronous cluster behind
 * PgBouncer in transaction mode. The leader is cut off (frozen: a partition), Patroni elects a synchronous standby,
 * and when the old leader comes back its Patroni demotes it. Every write sent meanwhile answers 201 or 503 with
 * Retry-After, never 500: through PgBouncer (connections cut by HAProxy), and from a second process whose address
 * still names the old leader, which now is a read-only standby (SQLSTATE 25006). Nothing is restarted: the workers
 * send an order placed afterwards to the supplier. The service found the database synchronous, so it never waited for standbys.
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, received, type Shop, submit, US_ADDRESS } from '../support/orders';
import { PatroniCluster, rowsAt, startCluster } from '../support/cluster';

let cluster: PatroniCluster;
let sandbox: Sandbox;
let viaBouncer: Service;
let stale: Service;
const loops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of loops) await stop();
  if (process.env.DUMP_LOGS) require('node:fs').writeFileSync(process.env.DUMP_LOGS, (viaBouncer?.logs ?? []).map((l) => JSON.stringify(l)).join('\n'));
  await viaBouncer?.stop('SIGKILL').catch(() => undefined);
  await stale?.stop('SIGKILL').catch(() => undefined);
  await sandbox?.close();
  await cluster?.destroy();
});

const FAST = {
  DISPATCH_WAIT_MS: '0',
  JOB_SUPERVISE_SECONDS: '1',
  DISPATCH_SWEEP_SECONDS: '1',
  DISPATCH_SWEEP_STALE_SECONDS: '3',
  DISPATCH_RETRY_BASE_SECONDS: '1',
};

interface Answer {
  status: number;
  retryAfter: string | null;
  at: number;
}

/** Orders placed one after another until `stop()`; every answer kept. */
function keepOrdering(svc: Service, shop: Shop): { answers: Answer[]; stop: () => Promise<void> } {
  const answers: Answer[] = [];
  let going = true;
  const p = shop.products[0];
  const loop = (async () => {
    while (going) {
      const res = await svc
        .call('POST', `/api/store-orders/${shop.storeId}`, {
          key: shop.owner.key,
          body: {
            items: [{ productId: p.productId, variantId: p.variantId, quantity: 1 }],
            destination: US_ADDRESS,
            paymentMethod: 'manual',
            contractModel: 'standard',
          },
        })
        .catch(() => ({ status: 0, headers: new Headers() }));
      answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), at: Date.now() });
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  const stop = async () => ((going = false), await loop);
  loops.push(stop);
  return { answers, stop };
}

test('mid-switch: 201 or 503 with Retry-After, never 500, through PgBouncer and from a demoted node; the workers carry on', async () => {
  cluster = await startCluster('live', { synchronous: true, pgbouncer: true });
  sandbox = await startSandbox();
  const leader = await cluster.leader();
  viaBouncer = await startService({
    label: 'switch-bouncer',
    sandbox,
    databaseUrl: cluster.url('live'),
    env: { ...FAST, DATABASE_SESSION_URL: cluster.directUrl('live'), DATABASE_REPLICATION: 'asynchronous' },
  });
  // A process whose address still names the leader of now (a stale DNS answer, a hand-written host).
  stale = await startService({ label: 'switch-stale', sandbox, databaseUrl: cluster.memberUrl(leader, 'live'), env: FAST });
  const shop = await openShop(viaBouncer, sandbox);
  // Declared asynchronous, found synchronous: the service leaves the waiting to the database.
  await eventually(
    async () => (viaBouncer.logs.some((l) => l.msg === 'the database replicates synchronously: the service does not wait for its standbys') ? true : undefined),
    30000,
    'the synchronous replication found',
  );

  const a = keepOrdering(viaBouncer, shop);
  const b = keepOrdering(stale, shop);
  await new Promise((r) => setTimeout(r, 2000));
  const { from, to } = await cluster.failover('freeze');
  expect(from).toBe(leader);
  expect(to).not.toBe(leader);
  const rejoined = Date.now();
  // The old leader is a standby now: the stale process's writes meet a read-only server.
  await eventually(
    async () =>
      b.answers.filter((x) => x.at > rejoined && x.status === 503).length >= 3 && a.answers.filter((x) => x.at > rejoined && x.status === 201).length >= 3
        ? true
        : undefined,
    60000,
    'answers after the switch',
  );
  await Promise.all([a.stop(), b.stop()]);

  for (const answers of [a.answers, b.answers]) {
    expect(answers.filter((x) => x.status !== 201 && x.status !== 503)).toEqual([]);
    expect(answers.filter((x) => x.status === 503 && !(Number(x.retryAfter) >= 1))).toEqual([]);
  }
  expect(a.answers.at(-1)!.status).toBe(201);
  // The stale process meets a server that answers, read-only (SQLSTATE 25006 on every write): each write 503.
  const standby = async () =>
    (await rowsAt(cluster.memberUrl(from, 'live'), 'SELECT pg_is_in_recovery() AS standby').catch(() => []))[0]?.standby ? true : undefined;
  expect(await eventually(standby, 60000, 'the old leader a standby')).toBe(true);
  expect(b.answers.filter((x) => x.at > rejoined + 2000).map((x) => x.status)).toEqual(b.answers.filter((x) => x.at > rejoined + 2000).map(() => 503));
  // It is reached and reads are served there: the writes' 503s are the read-only server's 25006, not a lost network.
  const listed = await stale.call('GET', `/api/store-orders/${shop.storeId}`, { key: shop.owner.key });
  expect(listed.status).toBe(200);
  expect(stale.logs.filter((l) => l.msg === 'request failed')).toEqual([]);
  expect(viaBouncer.logs.filter((l) => l.msg === 'request failed')).toEqual([]);
  // Every order answered 201 is there, through the new leader (synchronous: none lost).
  const ids = (await rowsAt(cluster.directUrl('live'), 'SELECT count(*)::int AS n FROM store_orders WHERE store_id = $1', [shop.storeId]))[0].n;
  expect(ids).toBeGreaterThanOrEqual(a.answers.filter((x) => x.status === 201).length + b.answers.filter((x) => x.status === 201).length);

  // No restart: an order placed now is confirmed and its part sent to the supplier by the same workers.
  const order = (
    await viaBouncer.call('POST', `/api/store-orders/${shop.storeId}`, {
      key: shop.owner.key,
      body: {
        items: [{ productId: shop.products[0].productId, variantId: shop.products[0].variantId, quantity: 1 }],
        destination: US_ADDRESS,
        paymentMethod: 'manual',
        contractModel: 'standard',
      },
    })
  ).body.result;
  expect((await viaBouncer.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  expect((await submit(viaBouncer, shop, order.id)).status).toBeLessThan(300);
  let last: any[] = [];
  const number = await eventually(
    async () => {
      last = await rowsAt(
        cluster.directUrl('live'),
        'SELECT supplier_order_number AS n, status, step_due, review_reason FROM supplier_orders WHERE order_id = $1',
        [order.id],
      );
      return last[0]?.n && (await received(sandbox)).count(last[0].n) > 0 ? last[0].n : undefined;
    },
    90000,
    'the part sent',
  ).catch((err) => {
    throw new Error(`${err.message}: ${JSON.stringify(last)}`);
  });
  expect((await received(sandbox)).count(number)).toBe(1);
  expect([viaBouncer.proc.exitCode, stale.proc.exitCode]).toEqual([null, null]);
}, 300000);

leakScanTest();
