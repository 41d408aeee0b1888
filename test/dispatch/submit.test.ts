import { Pool } from 'pg';
import { adminUrl, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received, soAction, submit } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'submit', sandbox, publicBaseUrl: true });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

test('submit creates one supplier order at the supplier, pay pays it once, and the order part follows', async () => {
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop, { quantity: 2 });
  expect(order.fulfilmentGroups.map((g: any) => g.groupKey)).toEqual([partKeyOf(shop)]);
  const res = await submit(svc, shop, order.id);
  expect(res.status).toBe(200);
  const so = res.body.result;
  expect(so).toMatchObject({
    status: 'submitted',
    orderNumber: order.number,
    fulfilmentGroupKey: partKeyOf(shop),
    supplierKey: 'sandbox',
    attempt: 1,
    payment: { status: 'unpaid' },
    reviewReason: null,
  });
  expect(so.supplierOrderId).toMatch(/^SBX-O/);
  const r = await received(sandbox, so.supplierOrderNumber);
  expect(r.count(so.supplierOrderNumber)).toBe(1);
  expect(so.costs.itemsMinor).toBe(shop.products[0].costMinor * 2);

  const again = await submit(svc, shop, order.id);
  expect(again.body.result._id).toBe(so._id);
  expect((await received(sandbox)).count(so.supplierOrderNumber)).toBe(1);

  // No replication declared (DATABASE_REPLICATION unset): no write's answer nor first order looked at the standbys.
  // Counted by Postgres (pg_stat_statements, kept in the server's administrative database), this service's database only.
  const admin = new Pool({ connectionString: adminUrl(), max: 1 });
  const looks = await admin
    .query(
      `SELECT coalesce(sum(calls), 0)::int AS n, (SELECT coalesce(sum(calls), 0)::int FROM pg_stat_statements s WHERE s.dbid = d.oid) AS all
                                     FROM pg_database d LEFT JOIN pg_stat_statements s ON s.dbid = d.oid AND s.query LIKE '%pg_replication_slots%' AND s.query LIKE '%pg_current_wal_insert_lsn%'
                                    WHERE d.datname = $1 GROUP BY d.oid`,
      [new URL(svc.databaseUrl).pathname.slice(1)],
    )
    .finally(() => admin.end());
  expect(looks.rows[0].all).toBeGreaterThan(0);
  expect(looks.rows[0].n).toBe(0);

  const paid = await soAction(svc, shop, so._id, 'pay');
  expect(paid.status).toBe(200);
  expect(paid.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });
  expect((await received(sandbox, so.supplierOrderNumber)).payments).toHaveLength(1);
  const twice = await soAction(svc, shop, so._id, 'pay');
  expect(twice.status).toBe(409);
  expect(twice.body.error.code).toBe('invalidState');

  const details = await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key });
  expect(details.body.result.fulfilmentGroups[0].status).toBe('processing');
  expect(details.body.result.supplierOrders.map((s: any) => s._id)).toEqual([so._id]);
  expect(details.body.result.status).toBe('processing');
  expect(paid.body.result.events.map((e: any) => e.type)).toEqual(expect.arrayContaining(['created', 'createdAtSupplier', 'payRequested', 'paid']));
});

leakScanTest();
