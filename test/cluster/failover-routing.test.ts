/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * A failover that takes back records a worker made (issue 43, item 2): routing moves each part to the cheaper CJ
 * alternate after the standby's stream was cut, so the new supplier orders (new ids, new numbers) exist only on the
 * primary, whose Patroni then dies (its Postgres runs on, cut off by HAProxy): Patroni elects a standby that never
 * had them, asynchronously replicated (issue 56, item 1: the cluster decides, the test promotes nothing). Were a new order sent before a standby held its record, CJ would keep an order that no
 * record names, and the part, routed again after the failover under another number, a second one. The suppliers'
 * own records are what the test reads: one live order per part in all, each answering to a record of the service.
 */
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { placeOrder, received } from '../support/orders';
import { cjControl, openRerouteShop } from '../support/reroute';
import { PatroniCluster, rowsAt, startCluster } from '../support/cluster';

const PARTS = 4;
/** CJ answers slowly, so each part's quotes, move and send all come after the cut. */
const CJ_LATENCY_MS = 3000;

let pair: PatroniCluster;
let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;
afterAll(async () => {
  await svc?.stop('SIGKILL').catch(() => undefined);
  await sandbox?.close();
  await fake?.close();
  await pair?.destroy();
});

test('supplier orders a routing move made after the cut are sent only once a standby holds them: after the failover each part has one order in all, each one the service knows', async () => {
  pair = await startCluster('live');
  sandbox = await startSandbox();
  fake = await startFakeCj();
  svc = await startService({
    label: 'failover-routing',
    sandbox,
    databaseUrl: pair.url('live'),
    env: {
      DATABASE_REPLICATION: 'asynchronous',
      CJ_API_BASE_URL: fake.baseUrl,
      ROUTING_QUOTE_TIMEOUT_MS: String(CJ_LATENCY_MS * 3),
      STANDBY_WAIT_MS: '2000',
      DISPATCH_RETRY_BASE_SECONDS: '1',
      JOB_SUPERVISE_SECONDS: '1',
      DISPATCH_SWEEP_SECONDS: '1',
      DISPATCH_SWEEP_STALE_SECONDS: '3',
    },
  });
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 1, priceFactor: 0.5 });
  // The sandbox ten times dearer: the rule moves every part to CJ before anything is created.
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { costMinor: shop.products[0].costMinor * 10 });
  expect(
    (await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/routing`, { key: shop.owner.key, body: { routing: { rule: 'lowestLandedCost' } } })).status,
  ).toBe(200);
  await cjControl(fake, 'POST', '/faults', { latencyMs: CJ_LATENCY_MS });

  const orders = [];
  for (let i = 0; i < PARTS; i++) {
    const order = await placeOrder(svc, shop);
    expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
    orders.push(order);
  }
  // Every confirmation is on the standby; what the workers write from now on is on the primary alone.
  await pair.freezeReplication(true);
  const leader = await pair.leader();
  const moved = `SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = $1 AND connection_id = $2`;
  // The moves are written (on the primary only), and their sends had time to reach CJ: a look-up and a create there.
  await eventually(
    async () => ((await rowsAt(pair.memberUrl(leader, 'live'), moved, [shop.storeId, shop.cjConnId]))[0].n >= PARTS ? true : undefined),
    60000,
    'every part moved to CJ on the primary',
  );
  await eventually(
    async () =>
      svc.logs.filter((l) => String(l.err ?? '').includes('standby has not confirmed the supplier order record')).length >= PARTS ||
      (await cjControl(fake, 'GET', '/received')).orders.length >= 2
        ? true
        : undefined,
    60000,
    'the new orders sent or held',
  );
  const { lostWalBytes, to } = await pair.failover('patroni', { rejoin: false });
  expect(lostWalBytes).toBeGreaterThan(0);
  // Moves were lost: on the promoted standby parts are at their primary again, never routed (a move made before the
  // cut, on a slow machine, is kept).
  expect((await rowsAt(pair.memberUrl(to, 'live'), moved, [shop.storeId, shop.cjConnId]))[0].n).toBeLessThan(PARTS);
  await cjControl(fake, 'POST', '/faults', { latencyMs: 0 });

  // No restart: the parts are routed again and sent, each once.
  let last: any[] = [];
  const rows = await eventually(
    async () => {
      last = await rowsAt(
        pair.directUrl('live'),
        `SELECT id, order_id, connection_id, status, review_reason, step_due, supplier_order_number FROM supplier_orders WHERE store_id = $1`,
        [shop.storeId],
      );
      const live = last.filter((r) => r.connection_id === shop.cjConnId);
      return live.length === PARTS && live.every((r) => r.status === 'submitted' && !r.step_due) ? last : undefined;
    },
    120000,
    'every part sent to CJ after the failover',
  ).catch((err) => {
    throw new Error(`${err.message}: ${JSON.stringify(last)}`);
  });
  expect(svc.proc.exitCode).toBeNull();

  // The suppliers' own records: CJ holds one order per part, each under a number the service's records name; the
  // sandbox holds none.
  const atCj = (await cjControl(fake, 'GET', '/received')).orders;
  const known = new Set(rows.map((r) => r.supplier_order_number));
  expect(atCj.filter((o: any) => !known.has(o.orderNumber)).map((o: any) => o.orderNumber)).toEqual([]);
  expect(atCj).toHaveLength(PARTS);
  for (const o of orders) {
    const numbers = rows.filter((r) => r.order_id === o.id).map((r) => r.supplier_order_number);
    expect(atCj.filter((x: any) => numbers.includes(x.orderNumber))).toHaveLength(1);
  }
  expect((await received(sandbox)).orders.filter((o: any) => rows.some((r) => r.supplier_order_number === o.orderNumber))).toEqual([]);
}, 300000);

leakScanTest();
