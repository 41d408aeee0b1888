/** Several stores on one supplier account: the supplier's one notification address serves them all. */
import { call, createStore, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { sandboxApproval, signInInBrowser } from '../support/sign-in-browser';
import { openShop, placeOrder, Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop1: Shop;
let shop2: Shop;
let signedIn: { id: string; storeId: string; key: string; webhookUrl: string };

const AUTOMATIC = { level: 'automatic', automaticPayment: true, allowUnpaidOrders: true };

beforeAll(async () => {
  sandbox = await startSandbox();
  // The safety net far away, so only notifications can bring these updates in.
  svc = await startService({ label: 'shared', sandbox, publicBaseUrl: true, env: { SUPPLIER_READBACK_INTERVAL_SECONDS: '3600' } });
  shop1 = await openShop(svc, sandbox, { page: 3, products: 1, automation: AUTOMATIC });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const connections = (shop: Shop) => svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key }).then((r) => r.body.result as any[]);
const registeredUrl = async () => (await sandbox.v1(shop1.account.liveKey, 'GET', '/webhook')).body.url as string;

/** Another store of another developer, connected with the same supplier API key as shop 1, with one product imported. */
async function secondStore(): Promise<{ shop: Shop; answer: any }> {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const storeId = await createStore(svc, owner.key, 'Second store');
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: shop1.account.liveKey }, automation: AUTOMATIC },
  });
  expect(res.status).toBe(201);
  const items = (await sandbox.v1(shop1.account.liveKey, 'GET', '/products?pageSize=50&page=5')).body.items;
  const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50);
  const imported = await svc.call('POST', `/api/store-suppliers/${storeId}/${res.body.result.id}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }] },
  });
  expect(imported.status).toBe(201);
  const product = imported.body.result.products[0];
  const shop: Shop = {
    owner,
    storeId,
    connId: res.body.result.id,
    account: shop1.account,
    products: [
      {
        productId: product.id,
        variantId: product.variants[0].id,
        supplierVariantId: p.variants[0].id,
        supplierProductId: p.id,
        costMinor: p.variants[0].costMinor,
      },
    ],
  };
  return { shop, answer: res.body.result };
}

/** Places and confirms an order (automatic: sent and paid), ships it at the supplier, and waits for the service to show it. */
async function shipsThrough(shop: Shop, trackingNumber: string) {
  const order = await placeOrder(svc, shop);
  await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key });
  const so = await eventually(
    async () => {
      const o = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    20000,
    'the automatic send',
  );
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber });
  return eventually(
    async () => {
      const s = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${so._id}`, { key: shop.owner.key })).body.result;
      return s.status === 'shipped' ? s : undefined;
    },
    20000,
    `the shipment ${trackingNumber} read back`,
  );
}

test('a second store on the same supplier account: both keep working, the answer says so, each store gets its own shipments', async () => {
  expect((await connections(shop1))[0].sharedSupplierAccount).toBe(false);
  const { shop, answer } = await secondStore();
  shop2 = shop;
  expect(answer).toMatchObject({ supplierKey: 'sandbox', sharedSupplierAccount: true, accountLabel: `${shop1.account.accountId} (live)` });
  expect((await connections(shop1))[0].sharedSupplierAccount).toBe(true);
  // The supplier keeps one address per account: it now points at the second connection.
  expect(await registeredUrl()).toBe(answer.webhookUrl);

  const first = await shipsThrough(shop1, 'SBX000000000101');
  expect(first).toMatchObject({ integrationId: shop1.connId, storeId: shop1.storeId, shipping: { carrier: 'SandboxPost', trackingNumber: 'SBX000000000101' } });
  const second = await shipsThrough(shop2, 'SBX000000000102');
  expect(second).toMatchObject({ integrationId: shop2.connId, storeId: shop2.storeId, shipping: { trackingNumber: 'SBX000000000102' } });
  // Neither store sees the other's supplier orders.
  const list1 = (await svc.call('GET', `/api/store-suppliers/${shop1.storeId}/orders`, { key: shop1.owner.key })).body;
  expect(list1.result.items.map((s: any) => s._id)).toEqual([first._id]);
  // Both arrived at the second connection's address.
  const [conn2] = await connections(shop2);
  expect(conn2.lastWebhookAt).not.toBeNull();

  // A product change arrives there too, and is read back into the store that links the product.
  const p = shop1.products[0];
  await sandbox.control('POST', `/variants/${p.supplierVariantId}`, { costMinor: p.costMinor + 123 });
  const link = await eventually(
    async () => {
      const [l] = (await svc.call('GET', `/api/store-suppliers/${shop1.storeId}/links?connectionId=${shop1.connId}`, { key: shop1.owner.key })).body.result
        .items;
      return l.variants[0].costMinor === p.costMinor + 123 ? l : undefined;
    },
    20000,
    'the product change read back into store 1',
  );
  expect(link.lastSyncAt).not.toBeNull();
});

test('disconnecting the connection that receives hands the address to the other one, which is still notified', async () => {
  const gone = await svc.call('DELETE', `/api/store-suppliers/${shop2.storeId}/${shop2.connId}`, { key: shop2.owner.key });
  expect(gone.status).toBe(200);
  expect(gone.body.result).toMatchObject({ disconnected: true, removedLinks: 1 });
  const [conn1] = await connections(shop1);
  expect(await registeredUrl()).toBe(conn1.webhookUrl);
  expect(conn1.sharedSupplierAccount).toBe(false);
  const shipped = await shipsThrough(shop1, 'SBX000000000103');
  expect(shipped.shipping.trackingNumber).toBe('SBX000000000103');
});

test('sign-in to the same supplier account shares it too', async () => {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 100 });
  const storeId = await createStore(svc, owner.key, 'Signed-in store');
  const started = (
    await svc.call('POST', `/api/store-suppliers/${storeId}/oauth/start`, { key: owner.key, body: { supplierKey: 'sandbox-signin', mode: 'live' } })
  ).body.result;
  const done = await signInInBrowser(svc, started.authorizationUrl, owner.session, sandboxApproval(shop1.account.accountId));
  expect(done.status).toBe(201);
  expect(done.body.result).toMatchObject({ supplierKey: 'sandbox-signin', sharedSupplierAccount: true });
  expect(await registeredUrl()).toBe(done.body.result.webhookUrl);
  signedIn = { id: done.body.result.id, storeId, key: owner.key, webhookUrl: done.body.result.webhookUrl };
  // Shop 1's shipment arrives at the signed-in connection's address and is routed to shop 1.
  const shipped = await shipsThrough(shop1, 'SBX000000000104');
  expect(shipped).toMatchObject({ integrationId: shop1.connId, shipping: { trackingNumber: 'SBX000000000104' } });
});

test('switching the receiving connection off hands the address over too', async () => {
  const [conn1] = await connections(shop1);
  expect(await registeredUrl()).toBe(signedIn.webhookUrl);
  const off = await svc.call('PUT', `/api/store-suppliers/${signedIn.storeId}/${signedIn.id}/enabled`, { key: signedIn.key, body: { enabled: false } });
  expect([off.status, off.body.result.enabled]).toEqual([200, false]);
  expect(await registeredUrl()).toBe(conn1.webhookUrl);
  const shipped = await shipsThrough(shop1, 'SBX000000000105');
  expect(shipped.shipping.trackingNumber).toBe('SBX000000000105');
});

test('a store on another supplier account is not shared', async () => {
  const other = await openShop(svc, sandbox, { page: 4, products: 1 });
  expect((await connections(other))[0].sharedSupplierAccount).toBe(false);
});

test("a connection keeps its supplier account as a keyed digest, never the supplier's own id", async () => {
  const known = (await svc.db.query('SELECT supplier_account_key FROM supplier_connections WHERE id = $1', [shop1.connId])).rows[0].supplier_account_key;
  expect(known).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(known).not.toContain(shop1.account.accountId);
});

leakScanTest();
