/**
 * Work stored now that acts later acts only for someone who still holds the right (issue 31, docs/security.md):
 * a background import acts for the member who started it, checked again before every batch; an automatic send acts
 * for the store, under the owner's plan as it is when the order is confirmed. Each attack is followed to its effect
 * at the supplier or in the store's rows.
 */
import { createStore, eventually, leakScanTest, newDeveloper, operatorOf, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'authority_later', sandbox });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

/** A slow 60-product import (one supplier answer every 150 ms), started by `key`; answers how to read its progress. */
async function slowImport(storeId: string, connId: string, key: string) {
  const page = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=9')).body.items.slice(0, 60);
  await sandbox.control('POST', '/faults', { latencyMs: 150 });
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key,
    body: { products: page.map((p: any) => ({ supplierProductId: p.id })) },
  });
  expect(res.status).toBe(202);
  const jobId = res.body.result.id as string;
  return () => svc.call('GET', `/api/store-suppliers/${storeId}/imports/${jobId}`, { key: ownerKey }).then((r) => r.body.result);
}

let ownerKey = '';

async function storeWithConnection() {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 1000 });
  ownerKey = owner.key;
  const storeId = await createStore(svc, owner.key);
  const acc = await sandbox.account();
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
  });
  expect(conn.status).toBe(201);
  return { owner, storeId, connId: conn.body.result.id as string };
}

afterEach(async () => {
  await sandbox.control('DELETE', '/faults');
});

test('a background import stops when the member who started it is removed from the store, and charges only what it imported', async () => {
  const { owner, storeId, connId } = await storeWithConnection();
  const importer = await newDeveloper(svc, { credits: 1000 });
  expect(
    (
      await svc.call('PUT', `/api/stores/${storeId}/staff`, {
        key: owner.key,
        body: { email: importer.email, permissions: ['suppliers.view', 'suppliers.import'] },
      })
    ).status,
  ).toBe(200);
  const progress = await slowImport(storeId, connId, importer.key);
  await eventually(async () => ((await progress()).done >= 1 ? true : undefined), 60000, 'the import to get going');
  expect((await svc.call('DELETE', `/api/stores/${storeId}/staff/${importer.accountId}`, { key: owner.key })).status).toBe(204);

  const ended = await eventually(
    async () => {
      const p = await progress();
      return p.status === 'failed' ? p : undefined;
    },
    60000,
    'the import to stop',
  );
  expect(ended.done).toBeLessThan(60);
  expect(ended.errors.length).toBeGreaterThan(0);
  expect(ended.errors.every((e: any) => e.code === 'importAuthorityEnded')).toBe(true);
  expect(ended.errors[0].message).toMatch(/may no longer import/);
  // What exists is what was imported while they could, each charged once to the importer; nothing after.
  const products = (await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId])).rows[0].n;
  const charged = (
    await svc.db.query(
      `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND action = 'supplierProduct.import' AND request_id LIKE 'import:%'`,
      [importer.accountId],
    )
  ).rows[0].n;
  expect(products).toBe(ended.done);
  expect(charged).toBe(ended.done);
});

test("a background import stops when the store owner's plan no longer includes dropshipping", async () => {
  const { owner, storeId, connId } = await storeWithConnection();
  const progress = await slowImport(storeId, connId, owner.key);
  await eventually(async () => ((await progress()).done >= 1 ? true : undefined), 60000, 'the import to get going');
  await operatorOf(svc).setPlan(owner.accountId, 'free');
  const ended = await eventually(
    async () => {
      const p = await progress();
      return p.status === 'failed' ? p : undefined;
    },
    60000,
    'the import to stop',
  );
  expect(ended.done).toBeLessThan(60);
  expect(ended.errors.every((e: any) => e.code === 'importAuthorityEnded' && /plan no longer includes dropshipping/.test(e.message))).toBe(true);
});

test("an automatic send acts under the owner's plan as it is when the order is confirmed", async () => {
  const shop = await openShop(svc, sandbox, { page: 21, automation: { level: 'automatic', automaticPayment: true, allowUnpaidOrders: true } });
  await operatorOf(svc).setPlan(shop.owner.accountId, 'free');
  const lapsed = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${lapsed.id}/confirm`, { key: shop.owner.key })).status).toBe(200);

  // Back on a plan with dropshipping: the next confirmation sends; the lapsed one was never sent.
  await operatorOf(svc).setPlan(shop.owner.accountId, 'pro');
  const sent = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${sent.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  const so = await eventually(
    async () => {
      const o = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${sent.id}`, { key: shop.owner.key })).body.result;
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    20000,
    'the automatic send',
  );
  expect((await received(sandbox)).count(so.supplierOrderNumber)).toBe(1);

  const o = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${lapsed.id}`, { key: shop.owner.key })).body.result;
  expect(o.supplierOrders).toEqual([]);
  expect(o.fulfilmentGroups[0].status).toBe('pending');
  // The store's supplier account holds exactly the one order sent after the plan came back.
  expect((await received(sandbox)).orders.filter((x: any) => x.accountId === shop.account.accountId).map((x: any) => x.orderNumber)).toEqual([
    so.supplierOrderNumber,
  ]);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_orders WHERE order_id = $1', [lapsed.id])).rows[0].n).toBe(0);
});

leakScanTest();
