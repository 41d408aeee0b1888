/**
 * Dispatch under faults. Every test counts what the sandbox supplier ACTUALLY received (GET /control/received),
 * never what our service believes it sent: a create that timed out after succeeding, a storm of submits, a worker
 * killed mid-call, Postgres restarted mid-dispatch, an order paid behind our back, and two workers on one database.
 */
import { Pool } from 'pg';
import { OwnPostgres } from '../support/own-postgres';
import { createDatabase, eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received, Shop, soAction, submit } from '../support/orders';

// ---------------------------------------------------------------- per-test resources

/** Everything a test starts is stopped after it, last started first (a service before the Postgres it uses). */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function sandboxFor(opts: { createHangMs?: number } = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(opts);
  cleanups.push(() => sandbox.close());
  return sandbox;
}

async function serviceFor(opts: Parameters<typeof startService>[0], stopWith: NodeJS.Signals = 'SIGTERM'): Promise<Service> {
  const svc = await startService(opts);
  cleanups.push(() => svc.stop(stopWith));
  return svc;
}

const getSo = (svc: Service, shop: Shop, soId: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${soId}`, { key: shop.owner.key }).then((r) => r.body.result);

/** Waits until the supplier order reaches `status`; a pause or any other final state fails at once with the record. */
async function settlesAs(svc: Service, shop: Shop, soId: string, status: string, timeoutMs: number) {
  return eventually(
    async () => {
      const so = await getSo(svc, shop, soId);
      if (so?.status === status) return so;
      if (so && ['needsReview', 'cancelled'].includes(so.status))
        throw new Error(
          `supplier order ${soId} ended ${so.status}: ${JSON.stringify({ reviewReason: so.reviewReason, reviewMessage: so.reviewMessage, events: so.events })}`,
        );
      return undefined;
    },
    timeoutMs,
    `supplier order ${soId} to become ${status}`,
  );
}

// ---------------------------------------------------------------- 1. create timed out after succeeding

test('a create that times out after succeeding is found by the retry, not made twice', async () => {
  // The sandbox holds the create's socket 3 s; we give up after 0.8 s, so the order exists but we never heard so.
  const sandbox = await sandboxFor({ createHangMs: 3000 });
  const svc = await serviceFor({ label: 'faults-timeout', sandbox, env: { SUPPLIER_TIMEOUT_MS: '800', DISPATCH_RETRY_BASE_SECONDS: '1' } });
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop);

  await sandbox.control('POST', '/faults', { timeoutAfterCreateNext: 1 });
  const res = await submit(svc, shop, order.id);
  expect([200, 202]).toContain(res.status);
  const first = res.body.result;
  // The job acted and did not hear back: a passing error, retried in the background (never submitted blind).
  expect(['queued', 'failed']).toContain(first.status);
  const number = first.supplierOrderNumber as string;

  const so = await settlesAs(svc, shop, first._id, 'submitted', 20000);
  const r = await received(sandbox);
  expect(r.count(number)).toBe(1);
  // The retry looked the number up and did not POST /v1/orders again: one create arrived, ever, at this sandbox.
  expect(r.all.createAttempts).toBe(1);
  const atSupplier = r.orders.filter((o: any) => o.orderNumber === number);
  expect(atSupplier).toHaveLength(1);
  expect(so).toMatchObject({ status: 'submitted', supplierOrderNumber: number, supplierOrderId: atSupplier[0].id, attempt: 1, payment: { status: 'unpaid' } });
  const types = so.events.map((e: any) => e.type);
  expect(types).toEqual(expect.arrayContaining(['created', 'failed', 'automaticRetry', 'foundAtSupplier']));
  expect(types).not.toContain('createdAtSupplier');
  const failed = so.events.find((e: any) => e.type === 'failed');
  expect(failed.details.error).toBe('timeout');
}, 40000);

// ---------------------------------------------------------------- 2. a storm of submits

test('100 concurrent submits of one part make one supplier order row and one order at the supplier', async () => {
  const sandbox = await sandboxFor();
  const svc = await serviceFor({ label: 'faults-storm', sandbox });
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop);
  // Some latency so that the first job is still working while the other 99 calls arrive.
  await sandbox.control('POST', '/faults', { latencyMs: 150 });

  const answers = await Promise.all(Array.from({ length: 100 }, () => submit(svc, shop, order.id)));
  const statuses = [...new Set(answers.map((a) => a.status))];
  expect(statuses.every((s) => s === 200 || s === 202)).toBe(true);
  const ids = new Set(answers.map((a) => a.body.result._id));
  expect(ids.size).toBe(1);
  const [soId] = [...ids];

  const rows = await svc.db.query('SELECT count(*)::int AS n FROM supplier_orders WHERE order_id = $1', [order.id]);
  expect(rows.rows[0].n).toBe(1);
  const so = await settlesAs(svc, shop, soId, 'submitted', 15000);
  const r = await received(sandbox);
  expect(r.count(so.supplierOrderNumber)).toBe(1);
  expect(r.all.createAttempts).toBe(1);
  expect(r.orders).toHaveLength(1);
  expect(so.supplierOrderId).toBe(r.orders[0].id);
  expect(so.events.filter((e: any) => e.type === 'created')).toHaveLength(1);
}, 40000);

// ---------------------------------------------------------------- 3. worker killed mid-dispatch

test('a worker killed with SIGKILL mid-dispatch: a new worker finishes every part, each ordered once', async () => {
  // Every create that succeeds is held (the order exists, no answer comes) until its client goes away.
  const sandbox = await sandboxFor({ createHangMs: 60000 });
  const databaseUrl = await createDatabase('faults-kill');
  // DISPATCH_WAIT_MS=0: submit answers 202 at once and leaves the work to the worker processes.
  const api = await serviceFor({ label: 'faults-kill', sandbox, databaseUrl, role: 'api', env: { DISPATCH_WAIT_MS: '0' } });
  const workerEnv = { JOB_SUPERVISE_SECONDS: '1', DISPATCH_RETRY_BASE_SECONDS: '1' };
  const first = await serviceFor({ label: 'faults-kill', sandbox, databaseUrl, role: 'worker', env: workerEnv }, 'SIGKILL');
  const shop = await openShop(api, sandbox);
  const orders = [];
  for (let i = 0; i < 5; i++) orders.push(await placeOrder(api, shop));

  // Every supplier call now takes 1.5 s (getProduct, findOrderByNumber, createOrder), so the worker is mid-call.
  await sandbox.control('POST', '/faults', { latencyMs: 1500, timeoutAfterCreateNext: 5 });
  const answers = await Promise.all(orders.map((o) => submit(api, shop, o.id)));
  expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
  const numbers = answers.map((a) => a.body.result.supplierOrderNumber as string);
  expect(answers.every((a) => a.body.result.status === 'queued')).toBe(true);

  // Kill the worker once two orders exist at the supplier that it has not heard of (their creates hang); its other
  // jobs are somewhere in their 1.5 s calls, or still waiting for a free slot.
  const madeBeforeKill = await eventually(
    async () => {
      const r = await received(sandbox);
      const made = numbers.filter((n) => r.count(n) > 0);
      return made.length >= 2 ? made : undefined;
    },
    20000,
    'two orders to exist at the supplier',
  );
  await first.stop('SIGKILL');
  const attemptsAtKill = (await received(sandbox)).all.createAttempts as number;
  const atKill = await api.db.query(`SELECT status, count(*)::int AS n FROM supplier_orders WHERE store_id = $1 GROUP BY status`, [shop.storeId]);
  expect(atKill.rows).toEqual([{ status: 'queued', n: 5 }]);
  await sandbox.control('DELETE', '/faults');

  // pg-boss notices the dead worker's jobs once their 10 s heartbeat lapses (checked every JOB_SUPERVISE_SECONDS).
  await serviceFor({ label: 'faults-kill', sandbox, databaseUrl, role: 'worker', env: workerEnv }, 'SIGKILL');
  const settled = await eventually(
    async () => {
      const { rows } = await api.db.query(`SELECT id, order_id, status, supplier_order_number, supplier_order_id FROM supplier_orders WHERE store_id = $1`, [
        shop.storeId,
      ]);
      return rows.length === 5 && rows.every((r) => !['queued', 'failed'].includes(r.status)) ? rows : undefined;
    },
    50000,
    'every supplier order to leave queued/failed after the restart',
  );
  const r = await received(sandbox);
  expect(r.orders).toHaveLength(5);
  let createdAfterKill = 0;
  for (const row of settled) {
    expect(row.status).toBe('submitted');
    expect(r.count(row.supplier_order_number)).toBe(1);
    expect(row.supplier_order_id).toBe(r.orders.find((o: any) => o.orderNumber === row.supplier_order_number).id);
    const types = (await getSo(api, shop, row.id)).events.map((e: any) => e.type);
    if (madeBeforeKill.includes(row.supplier_order_number)) {
      // Made at the supplier by the dead worker: the new one found it by its number.
      expect(types).toContain('foundAtSupplier');
      expect(types).not.toContain('createdAtSupplier');
    }
    if (types.includes('createdAtSupplier')) createdAfterKill++;
  }
  // Nothing was created blind after the restart: one POST /v1/orders per order the new worker made, none for the
  // orders it found. (Creates that were still in the sandbox's latency when the worker died never became orders:
  // the sandbox reads the body after the latency, and the client was gone.)
  expect((r.all.createAttempts as number) - attemptsAtKill).toBe(createdAfterKill);
  expect(createdAfterKill).toBeLessThanOrEqual(5 - madeBeforeKill.length);
  // No lost part: every order part has its supplier order, sent.
  for (const o of orders) {
    const details = (await api.call('GET', `/api/store-orders/${shop.storeId}/${o.id}`, { key: shop.owner.key })).body.result;
    expect(details.supplierOrders).toHaveLength(1);
    expect(details.supplierOrders[0].status).toBe('submitted');
    expect(details.fulfilmentGroups[0].status).toBe('processing');
  }
}, 90000);

// ---------------------------------------------------------------- 4. Postgres restarted mid-dispatch

test('Postgres restarted (fast shutdown) mid-dispatch: the supplier order settles with one order at the supplier', async () => {
  const pg = new OwnPostgres();
  cleanups.push(() => pg.destroy());
  await pg.init();
  await pg.start();
  const admin = new Pool({ connectionString: pg.url(), max: 1 });
  await admin.query('CREATE DATABASE faults_pg_restart');
  await admin.end();
  const databaseUrl = pg.url('faults_pg_restart');

  const sandbox = await sandboxFor();
  // Stopped with SIGKILL: should the test fail while Postgres is down, a graceful stop would wait out its timeouts.
  const svc = await serviceFor(
    { label: 'faults-pg', sandbox, databaseUrl, env: { DISPATCH_WAIT_MS: '0', JOB_SUPERVISE_SECONDS: '1', DISPATCH_RETRY_BASE_SECONDS: '1' } },
    'SIGKILL',
  );
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop);

  await sandbox.control('POST', '/faults', { latencyMs: 1500 });
  const res = await submit(svc, shop, order.id);
  expect(res.status).toBe(202);
  const soId = res.body.result._id as string;
  const number = res.body.result.supplierOrderNumber as string;

  // The create is on the wire (counted on arrival, made 1.5 s later): stop Postgres now. The supplier makes the
  // order while the database is down, so the job cannot record it.
  await eventually(async () => ((await received(sandbox)).all.createAttempts >= 1 ? true : undefined), 15000, 'the create to reach the supplier');
  await pg.stop();
  await eventually(async () => ((await received(sandbox)).count(number) === 1 ? true : undefined), 10000, 'the supplier to make the order');
  await new Promise((r) => setTimeout(r, 1500));
  await sandbox.control('DELETE', '/faults');
  await pg.start();

  const so = await settlesAs(svc, shop, soId, 'submitted', 45000);
  expect(svc.proc.exitCode).toBeNull();
  const r = await received(sandbox);
  expect(r.count(number)).toBe(1);
  expect(r.orders).toHaveLength(1);
  expect(so).toMatchObject({ supplierOrderNumber: number, supplierOrderId: r.orders[0].id, attempt: 1 });
  // The answer never reached our database, so the record came from looking the number up after the restart.
  expect(so.events.map((e: any) => e.type)).toContain('foundAtSupplier');
  // The service is healthy again: a new order goes through end to end.
  const next = await placeOrder(svc, shop);
  const again = await submit(svc, shop, next.id);
  expect(again.status).toBe(202);
  await settlesAs(svc, shop, again.body.result._id, 'submitted', 20000);
}, 90000);

// ---------------------------------------------------------------- 5. paid at the supplier behind our back

test('paying an order already paid at the supplier records it and charges nothing twice', async () => {
  const sandbox = await sandboxFor();
  const svc = await serviceFor({ label: 'faults-paid', sandbox });
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id);
  expect(res.status).toBe(200);
  const so = res.body.result;
  expect(so).toMatchObject({ status: 'submitted', payment: { status: 'unpaid' } });

  // The merchant pays it in the supplier's own dashboard (its API, with the account's live key).
  const direct = await sandbox.v1(shop.account.liveKey, 'POST', `/orders/${so.supplierOrderId}/pay`);
  expect(direct.status).toBe(200);
  expect(direct.body).toMatchObject({ id: so.supplierOrderId, paid: true, status: 'paid' });

  const paid = await soAction(svc, shop, so._id, 'pay');
  expect(paid.status).toBe(200);
  expect(paid.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, supplierOrderId: so.supplierOrderId });
  expect(paid.body.result.events.map((e: any) => e.type)).toEqual(expect.arrayContaining(['payRequested', 'alreadyPaidAtSupplier']));
  expect(paid.body.result.events.map((e: any) => e.type)).not.toContain('paid');
  const r = await received(sandbox, so.supplierOrderNumber);
  expect(r.payments).toHaveLength(1);
  expect(r.payments[0].orderId).toBe(so.supplierOrderId);
  expect(r.count(so.supplierOrderNumber)).toBe(1);
}, 30000);

// ---------------------------------------------------------------- 6. two workers on one database

test('two worker processes on one database: 20 parts submitted at once, each ordered exactly once', async () => {
  const sandbox = await sandboxFor();
  const databaseUrl = await createDatabase('faults-two');
  const api = await serviceFor({ label: 'faults-two', sandbox, databaseUrl, role: 'api', env: { DISPATCH_WAIT_MS: '0' } });
  await Promise.all(
    [0, 1].map(() =>
      serviceFor({ label: 'faults-two', sandbox, databaseUrl, role: 'worker', env: { JOB_SUPERVISE_SECONDS: '1', DISPATCH_RETRY_BASE_SECONDS: '1' } }),
    ),
  );
  const shop = await openShop(api, sandbox);
  const orders = [];
  for (let i = 0; i < 20; i++) orders.push(await placeOrder(api, shop));

  await sandbox.control('POST', '/faults', { latencyMs: 200 });
  // Each part is submitted twice at the same moment, so both workers see competing work for every part.
  const answers = await Promise.all(orders.flatMap((o) => [submit(api, shop, o.id), submit(api, shop, o.id)]));
  expect(answers.every((a) => a.status === 200 || a.status === 202)).toBe(true);
  for (let i = 0; i < orders.length; i++) expect(answers[2 * i].body.result._id).toBe(answers[2 * i + 1].body.result._id);

  const settled = await eventually(
    async () => {
      const { rows } = await api.db.query(`SELECT status, supplier_order_number, supplier_order_id FROM supplier_orders WHERE store_id = $1`, [shop.storeId]);
      return rows.length === 20 && rows.every((r) => !['queued', 'failed'].includes(r.status)) ? rows : undefined;
    },
    40000,
    'all 20 supplier orders to be sent',
  );
  const r = await received(sandbox);
  for (const row of settled) {
    expect(row.status).toBe('submitted');
    expect(r.count(row.supplier_order_number)).toBe(1);
  }
  expect(r.orders).toHaveLength(20);
  expect(r.all.createAttempts).toBe(20);
  expect(new Set(settled.map((s) => s.supplier_order_id)).size).toBe(20);
  // Only latency was injected: no job met an error on the way (a failure would be retried, hiding a race).
  const failures = await api.db.query(
    `SELECT e.type, e.details FROM supplier_order_events e JOIN supplier_orders so ON so.id = e.supplier_order_id WHERE so.store_id = $1 AND e.type IN ('failed', 'paused')`,
    [shop.storeId],
  );
  expect(failures.rows).toEqual([]);
}, 60000);

leakScanTest();
