/**
 * The service with the CJ adapter, against the local CJ-format server: connect, browse, import, link sync, and the
 * dispatch path through CJ, with the duplicate-protection faults and every mapped CJ code reaching its review reason.
 * What CJ "received" is read from the fake's /control/received.
 */
import { Secrets } from '../../server/platform/crypto';
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { usdToMinor } from '../../server/suppliers/cj/money';
import { createStore, eventually, leakScanTest, newDeveloper, seen, Service, startService } from '../support/harness';
import { placeOrder, Shop, soAction, submit, US_ADDRESS } from '../support/orders';

/* eslint-disable @typescript-eslint/no-explicit-any */

const APP_SECRET = 'cj-service-test-secret-'.padEnd(48, 'y');
let fake: RunningFakeCj;
let svc: Service;
let catalogue: any[];
const accounts: Array<{ openId: string; apiKey: string }> = [];
const usedProducts = new Set<string>();

beforeAll(async () => {
  // The create that "times out after succeeding" holds its answer 5 s; the service gives up after 2.5 s.
  fake = await startFakeCj({ createHangMs: 5000 });
  svc = await startService({
    label: 'cj-service',
    publicBaseUrl: true,
    appSecret: APP_SECRET,
    env: {
      CJ_API_BASE_URL: fake.baseUrl,
      SUPPLIER_TIMEOUT_MS: '2500',
      DISPATCH_RETRY_LIMIT: '1',
      DISPATCH_RETRY_BASE_SECONDS: '1',
      JOB_SUPERVISE_SECONDS: '1',
    },
  });
  catalogue = await control('GET', '/catalogue');
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
});
afterEach(async () => {
  await control('DELETE', '/faults');
});

async function control(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(fake.controlUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const received = () => control('GET', '/received');
const ordersAtCj = async (orderNumber: string) => (await received()).orders.filter((o: any) => o.orderNumber === orderNumber);
const paymentsAtCj = async (orderNumber: string) => (await received()).payments.filter((p: any) => p.orderNumber === orderNumber);

async function cjAccount(balance = '10000.00', extra: Record<string, unknown> = {}): Promise<{ openId: string; apiKey: string }> {
  const acc = await control('POST', '/accounts', { balance, qps: 6, ...extra });
  seen.secrets.add(acc.apiKey);
  seen.secrets.add(acc.openId);
  accounts.push(acc);
  return acc;
}

/** Products on sale, each used by one test only. */
function freshProducts(n: number, filter: (p: any) => boolean = () => true): any[] {
  const chosen = catalogue.filter((p) => p.status === 3 && !usedProducts.has(p.pid) && filter(p)).slice(0, n);
  if (chosen.length < n) throw new Error('catalogue exhausted');
  for (const p of chosen) usedProducts.add(p.pid);
  return chosen;
}

interface CjShop extends Shop {
  cj: { openId: string; apiKey: string };
}

/** A store with a CJ connection (6 calls a second, as a CJ Advanced account) and imported products. */
async function openCjShop(
  opts: { balance?: string; products?: number; automation?: Record<string, unknown>; account?: Record<string, unknown> } = {},
): Promise<CjShop> {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const storeId = await createStore(svc, owner.key);
  const cj = await cjAccount(opts.balance ?? '10000.00', opts.account);
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'cj', mode: 'live', credentials: { apiKey: cj.apiKey }, settings: { requestsPerSecond: 6 } },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  const connId = conn.body.result.id;
  if (opts.automation) await svc.call('PUT', `/api/store-suppliers/${storeId}/${connId}/automation`, { key: owner.key, body: opts.automation });
  const chosen = freshProducts(opts.products ?? 1);
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: chosen.map((p) => ({ supplierProductId: p.pid, variantIds: [p.variants[0].vid] })), priceRule: { multiplier: '1' } },
  });
  if (res.status !== 201 || res.body.result.errors.length) throw new Error(res.text);
  const products = res.body.result.products.map((p: any, i: number) => ({
    productId: p.id,
    variantId: p.variants[0].id,
    supplierVariantId: chosen[i].variants[0].vid,
    supplierProductId: chosen[i].pid,
    costMinor: usdToMinor(chosen[i].variants[0].sellPrice),
  }));
  return { owner, storeId, connId, account: { accountId: cj.openId, liveKey: cj.apiKey, testKey: '' }, products, cj };
}

const getSo = async (shop: Shop, soId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${soId}`, { key: shop.owner.key })).body.result;

async function settles(shop: Shop, soId: string, status: string, timeoutMs = 20000): Promise<any> {
  return eventually(
    async () => {
      const so = await getSo(shop, soId);
      if (so.status === status) return so;
      if (so.status !== status && ['needsReview', 'cancelled'].includes(so.status))
        throw new Error(`ended ${so.status}: ${JSON.stringify({ reviewReason: so.reviewReason, reviewMessage: so.reviewMessage, events: so.events })}`);
      return undefined;
    },
    timeoutMs,
    `supplier order ${soId} to become ${status}`,
  );
}

async function pausedAs(shop: Shop, soId: string, reason: string, timeoutMs = 20000): Promise<any> {
  return eventually(
    async () => {
      const so = await getSo(shop, soId);
      return so.status === 'needsReview' ? so : undefined;
    },
    timeoutMs,
    `supplier order ${soId} to pause as ${reason}`,
  ).then((so) => {
    expect({ status: so.status, reviewReason: so.reviewReason }).toEqual({ status: 'needsReview', reviewReason: reason });
    return so;
  });
}

const secrets = new Secrets(APP_SECRET);
async function storedCredentials(connId: string): Promise<{ sealed: string; credentials: Record<string, string> }> {
  const sealed = (await svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE id = $1', [connId])).rows[0].credentials_sealed as string;
  return { sealed, credentials: JSON.parse(secrets.decrypt(sealed)) };
}

// ---------------------------------------------------------------- connect

describe('connect', () => {
  test('the catalogue offers cj, connected by API key', async () => {
    const owner = await newDeveloper(svc, { plan: 'pro' });
    const storeId = await createStore(svc, owner.key);
    const res = await svc.call('GET', `/api/store-suppliers/${storeId}/catalogue`, { key: owner.key });
    const cj = res.body.result.find((e: any) => e.key === 'cj');
    expect(cj).toMatchObject({
      name: 'CJ Dropshipping',
      available: true,
      capabilities: {
        authKind: 'apiKey',
        hasSandbox: false,
        balance: true,
        cancel: true,
        notifications: true,
        payment: 'balance',
        syncFields: ['cost', 'stock', 'availability'],
      },
    });
    expect(cj.settingsSchema.properties).toHaveProperty('requestsPerSecond');
  });

  test("a refused key stores nothing; a good one is kept sealed with CJ's tokens, and the notification address is registered at CJ", async () => {
    const owner = await newDeveloper(svc, { plan: 'pro', credits: 100 });
    const storeId = await createStore(svc, owner.key);
    const bogus = 'CJ1234567@api@ffffffffffffffffffffffffffffffff';
    seen.secrets.add(bogus);
    const refused = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'cj', mode: 'live', credentials: { apiKey: bogus } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('credentialsRejected');
    expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1', [storeId])).rows[0].n).toBe(0);

    const acc = await cjAccount('321.09');
    const before = (await received()).tokenExchanges;
    const res = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'cj', mode: 'live', credentials: { apiKey: acc.apiKey } },
    });
    expect(res.status).toBe(201);
    const conn = res.body.result;
    expect(conn).toMatchObject({
      supplierKey: 'cj',
      hasCredentials: true,
      accountLabel: `CJ account (API key ending ${acc.apiKey.slice(-4)})`,
      settings: { requestsPerSecond: 1, fromCountryCode: 'CN' },
    });
    expect(conn.webhookUrl).toMatch(new RegExp(`/api/store-suppliers/webhook/cj/${conn.id}\\.${storeId.replace(/-/g, '')}\\.[A-Za-z0-9_-]{22}$`));
    const info = await control('GET', `/accounts/${acc.openId}`);
    expect(info.callbacks).toEqual({ product: conn.webhookUrl, stock: conn.webhookUrl, order: conn.webhookUrl, logistics: conn.webhookUrl });
    expect((await received()).tokenExchanges - before).toBe(1);

    const { sealed, credentials } = await storedCredentials(conn.id);
    expect(credentials).toMatchObject({ apiKey: acc.apiKey, openId: acc.openId, accessToken: info.currentAccessToken });
    expect(Object.keys(credentials).sort()).toEqual([
      'accessToken',
      'accessTokenExpiresAt',
      'accessTokenIssuedAt',
      'apiKey',
      'openId',
      'refreshToken',
      'refreshTokenExpiresAt',
    ]);
    for (const value of [acc.apiKey, credentials.accessToken, credentials.refreshToken]) expect(sealed).not.toContain(value);

    const balance = await svc.call('GET', `/api/store-suppliers/${storeId}/${conn.id}/balance`, { key: owner.key });
    expect(balance.body.result).toEqual({ amountMinor: 32109, currency: 'USD' });
    const tested = await svc.call('POST', `/api/store-suppliers/${storeId}/${conn.id}/test`, { key: owner.key });
    expect(tested.body.result.health).toMatchObject({ status: 'healthy' });
    // Every call after connecting used the stored token.
    expect((await received()).tokenExchanges - before).toBe(1);
  });

  test('replacing the key stores the new key with its own tokens and registers the address for the new account', async () => {
    const shop = await openCjShop();
    const next = await cjAccount('77.00');
    const res = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}`, {
      key: shop.owner.key,
      body: { credentials: { apiKey: next.apiKey } },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.accountLabel).toBe(`CJ account (API key ending ${next.apiKey.slice(-4)})`);
    const { credentials } = await storedCredentials(shop.connId);
    const info = await control('GET', `/accounts/${next.openId}`);
    expect(credentials).toMatchObject({ apiKey: next.apiKey, openId: next.openId, accessToken: info.currentAccessToken });
    expect(info.callbacks.order).toBe(res.body.result.webhookUrl);
    const balance = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
    expect(balance.body.result).toEqual({ amountMinor: 7700, currency: 'USD' });
  });

  test('a token CJ stops accepting is refreshed, and the new pair is stored sealed with the connection', async () => {
    const shop = await openCjShop();
    const before = await storedCredentials(shop.connId);
    const refreshes = (await received()).tokenRefreshes;
    await control('POST', `/accounts/${shop.cj.openId}/revoke-tokens`, { access: true });
    const balance = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
    expect(balance.status).toBe(200);
    expect((await received()).tokenRefreshes - refreshes).toBe(1);
    const after = await storedCredentials(shop.connId);
    expect(after.credentials.accessToken).not.toBe(before.credentials.accessToken);
    expect(after.credentials.accessToken).toBe((await control('GET', `/accounts/${shop.cj.openId}`)).currentAccessToken);
    expect(after.credentials.refreshToken).not.toBe(before.credentials.refreshToken);
    expect(after.credentials.apiKey).toBe(shop.cj.apiKey);
    expect(after.sealed).not.toContain(after.credentials.accessToken);
    // The next calls use the stored pair: no further refresh, no exchange.
    await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
    await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products/${shop.products[0].supplierProductId}`, { key: shop.owner.key });
    expect((await received()).tokenRefreshes - refreshes).toBe(1);
  });
});

// ---------------------------------------------------------------- catalogue

describe('browse, import and link sync', () => {
  test("browse pages through CJ's catalogue; one product with variants; a CJ product address resolves without being fetched", async () => {
    const shop = await openCjShop();
    const base = `/api/store-suppliers/${shop.storeId}/${shop.connId}`;
    const first = await svc.call('GET', `${base}/products?pageSize=25`, { key: shop.owner.key });
    expect(first.status).toBe(200);
    const onSale = catalogue.filter((p) => p.status === 3);
    expect(first.body.result.pagination).toMatchObject({ hasMore: true, totalCount: onSale.length, pageSize: 25 });
    expect(first.body.result.items[0]).toMatchObject({ id: onSale[0].pid, title: onSale[0].nameEn, variants: [] });
    const second = await svc.call('GET', `${base}/products?pageSize=25&cursor=${encodeURIComponent(first.body.result.pagination.nextCursor)}`, {
      key: shop.owner.key,
    });
    expect(second.body.result.items[0].id).toBe(onSale[25].pid);
    const searched = await svc.call('GET', `${base}/products?query=${encodeURIComponent(onSale[5].nameEn)}`, { key: shop.owner.key });
    expect(searched.body.result.items.map((p: any) => p.id)).toContain(onSale[5].pid);

    const [p] = freshProducts(1);
    const one = await svc.call('GET', `${base}/products/${p.pid}`, { key: shop.owner.key });
    expect(one.body.result.variants.map((v: any) => [v.id, v.cost.amountMinor, v.stock])).toEqual(
      p.variants.map((v: any) => [v.vid, usdToMinor(v.sellPrice), v.totalStock]),
    );
    expect((await svc.call('GET', `${base}/products/00000000-0000-0000-0000-000000000000`, { key: shop.owner.key })).status).toBe(404);

    const resolved = await svc.call('POST', `${base}/products/resolve-url`, {
      key: shop.owner.key,
      body: { url: `https://cjdropshipping.com/product/anything-p-${p.pid}.html?utm=x` },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.result.supplierProductId).toBe(p.pid);
    const calls = (await received()).arrivals.length;
    for (const url of [
      'https://cjdropshipping.com/product/x.html',
      `http://127.0.0.1:${fake.port}/product/x-p-${p.pid}.html`,
      `https://app.cjdropshipping.com/product/x-p-${p.pid}.html`,
    ]) {
      const res = await svc.call('POST', `${base}/products/resolve-url`, { key: shop.owner.key, body: { url } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('unsupportedUrl');
    }
    expect((await received()).arrivals.length).toBe(calls);
  });

  test("import makes store products at CJ's cost; sync brings CJ's new cost, stock and a removed variant to the store", async () => {
    const shop = await openCjShop({ products: 1 });
    const [p] = catalogue.filter((x) => x.pid === shop.products[0].supplierProductId);
    const variant = (await svc.db.query('SELECT price_minor::int AS price, stock FROM store_variants WHERE id = $1', [shop.products[0].variantId])).rows[0];
    expect(variant).toEqual({ price: usdToMinor(p.variants[0].sellPrice), stock: p.variants[0].totalStock });
    const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links`, { key: shop.owner.key });
    const link = links.body.result.items[0];
    expect(link).toMatchObject({
      supplierKey: 'cj',
      supplierProductId: p.pid,
      variants: [{ supplierVariantId: p.variants[0].vid, costMinor: usdToMinor(p.variants[0].sellPrice), currency: 'USD' }],
    });

    await control('POST', `/variants/${p.variants[0].vid}`, { sellPrice: '23.455', stock: 12 });
    const synced = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/links/${link.id}/sync`, { key: shop.owner.key });
    expect(synced.status).toBe(200);
    expect(synced.body.result).toMatchObject({ lastSyncError: null, variants: [{ costMinor: 2346, stock: 12, available: true }] });
    expect((await svc.db.query('SELECT price_minor::int AS price, stock FROM store_variants WHERE id = $1', [shop.products[0].variantId])).rows[0]).toEqual({
      price: 2346,
      stock: 12,
    });

    await control('POST', `/variants/${p.variants[0].vid}`, { removed: true });
    const gone = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/links/${link.id}/sync`, { key: shop.owner.key });
    expect(gone.body.result.variants[0]).toMatchObject({ stock: 0, available: false });
    expect((await svc.db.query('SELECT stock FROM store_variants WHERE id = $1', [shop.products[0].variantId])).rows[0].stock).toBe(0);
  });
});

// ---------------------------------------------------------------- dispatch

describe('dispatch through CJ', () => {
  test("submit -> created at CJ (create only, cheapest shipping) -> paid from the balance -> shipped and delivered, read back on CJ's notifications", async () => {
    const shop = await openCjShop();
    const order = await placeOrder(svc, shop, { quantity: 2 });
    const res = await submit(svc, shop, order.id);
    expect(res.status).toBe(200);
    const so = res.body.result;
    expect(so).toMatchObject({ status: 'submitted', supplierKey: 'cj', supplierStatus: 'CREATED', payment: { status: 'unpaid' }, reviewReason: null });
    expect(so.supplierOrderId).toMatch(/^SD\d+$/);
    const [atCj] = await ordersAtCj(so.supplierOrderNumber);
    expect(atCj).toMatchObject({ cjOrderId: so.supplierOrderId, payType: 3, status: 'CREATED' });
    expect(so.costs).toEqual({
      itemsMinor: shop.products[0].costMinor * 2,
      shippingMinor: atCj.amountCents - shop.products[0].costMinor * 2,
      totalMinor: atCj.amountCents,
      currency: 'USD',
    });

    const balanceBefore = (await control('GET', `/accounts/${shop.cj.openId}`)).balanceCents;
    const paid = await soAction(svc, shop, so._id, 'pay');
    expect(paid.body.result).toMatchObject({ status: 'confirmed', supplierStatus: 'UNSHIPPED', payment: { status: 'paid' } });
    expect(await paymentsAtCj(so.supplierOrderNumber)).toHaveLength(1);
    expect((await control('GET', `/accounts/${shop.cj.openId}`)).balanceCents).toBe(balanceBefore - atCj.amountCents);

    // CJ ships: its ORDER and LOGISTIC notifications make the service read the order back.
    await control('POST', `/orders/${so.supplierOrderId}/ship`, { trackNumber: 'CJPKL-TRACK-1' });
    const shipped = await settles(shop, so._id, 'shipped');
    expect(shipped).toMatchObject({ supplierStatus: 'SHIPPED', shipping: { carrier: atCj.logisticName, trackingNumber: 'CJPKL-TRACK-1' } });
    expect(shipped.events.map((e: any) => e.type)).toContain('readBack');
    await control('POST', `/orders/${so.supplierOrderId}/deliver`);
    await settles(shop, so._id, 'delivered');
    const details = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
    expect(details.fulfilmentGroups[0].status).toBe('delivered');
    const [conn] = (await svc.db.query('SELECT last_webhook_at FROM supplier_connections WHERE id = $1', [shop.connId])).rows;
    expect(conn.last_webhook_at).not.toBeNull();
    expect(await ordersAtCj(so.supplierOrderNumber)).toHaveLength(1);
  });

  test('payNow: created and paid in one submit; a cancel before payment deletes the order at CJ', async () => {
    const shop = await openCjShop({ products: 2 });
    const now = await submit(svc, shop, (await placeOrder(svc, shop)).id, { payNow: true });
    expect(now.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });
    expect(await paymentsAtCj(now.body.result.supplierOrderNumber)).toHaveLength(1);

    const later = await submit(svc, shop, (await placeOrder(svc, shop, { productIndex: 1 })).id);
    expect(later.body.result.status).toBe('submitted');
    const cancelled = await soAction(svc, shop, later.body.result._id, 'cancel');
    expect(cancelled.body.result.status).toBe('cancelled');
    expect((await ordersAtCj(later.body.result.supplierOrderNumber))[0].status).toBe('CANCELLED');
  });
});

// ---------------------------------------------------------------- duplicate protection

describe('duplicate protection against the CJ-format server', () => {
  test('a create that times out after succeeding is found by the retry, not made twice', async () => {
    const shop = await openCjShop();
    const order = await placeOrder(svc, shop);
    const attempts = (await received()).createAttempts;
    await control('POST', '/faults', { timeoutAfterCreateNext: 1 });
    const res = await submit(svc, shop, order.id);
    expect(['queued', 'failed']).toContain(res.body.result.status);
    const number = res.body.result.supplierOrderNumber;
    const so = await settles(shop, res.body.result._id, 'submitted');
    const atCj = await ordersAtCj(number);
    expect(atCj).toHaveLength(1);
    expect((await received()).createAttempts - attempts).toBe(1);
    expect(so).toMatchObject({ supplierOrderId: atCj[0].cjOrderId, attempt: 1 });
    const types = so.events.map((e: any) => e.type);
    expect(types).toEqual(expect.arrayContaining(['created', 'failed', 'automaticRetry', 'foundAtSupplier']));
    expect(types).not.toContain('createdAtSupplier');
    expect(so.events.find((e: any) => e.type === 'failed').details.error).toBe('timeout');
  }, 40000);

  test('20 concurrent submits of one part make one supplier order and one order at CJ', async () => {
    const shop = await openCjShop();
    const order = await placeOrder(svc, shop);
    await control('POST', '/faults', { latencyMs: 100 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => submit(svc, shop, order.id)));
    expect(answers.every((a) => a.status === 200 || a.status === 202)).toBe(true);
    const ids = new Set(answers.map((a) => a.body.result._id));
    expect(ids.size).toBe(1);
    const so = await settles(shop, [...ids][0], 'submitted');
    expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_orders WHERE order_id = $1', [order.id])).rows[0].n).toBe(1);
    expect(await ordersAtCj(so.supplierOrderNumber)).toHaveLength(1);
    expect((await received()).orders.filter((o: any) => o.openId === shop.cj.openId)).toHaveLength(1);
  }, 40000);

  test('an order already paid at CJ is recorded as paid, never charged a second time', async () => {
    const shop = await openCjShop();
    // CJ's order notifications would have the service read the payment back first; without them the pay job must see it.
    const { accessToken } = await control('POST', `/accounts/${shop.cj.openId}/token`);
    seen.secrets.add(accessToken);
    const off = await fetch(`${fake.baseUrl}/webhook/set`, {
      method: 'POST',
      headers: { 'CJ-Access-Token': accessToken, 'content-type': 'application/json' },
      body: JSON.stringify({ order: { type: 'CANCEL' }, logistics: { type: 'CANCEL' } }),
    });
    expect((await off.json()).code).toBe(200);
    const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
    expect(res.body.result.status).toBe('submitted');
    await control('POST', `/orders/${res.body.result.supplierOrderId}/pay`);
    const paid = await soAction(svc, shop, res.body.result._id, 'pay');
    expect(paid.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });
    expect(paid.body.result.events.map((e: any) => e.type)).toContain('alreadyPaidAtSupplier');
    expect(paid.body.result.events.map((e: any) => e.type)).not.toContain('paid');
    const payments = await paymentsAtCj(res.body.result.supplierOrderNumber);
    expect(payments).toHaveLength(1);
    expect(payments[0].source).toBe('control');
  });

  test('CJ takes a repeated order number silently; the lookup before every create still makes one order (also when order/list ignores the number filter)', async () => {
    const shop = await openCjShop({ products: 2 });
    // What CJ does with a repeated number: a second order, no error.
    const [p] = catalogue.filter((x) => x.pid === shop.products[0].supplierProductId);
    const { accessToken } = await control('POST', `/accounts/${shop.cj.openId}/token`);
    seen.secrets.add(accessToken);
    const body = {
      orderNumber: `BYHAND-${Date.now()}`,
      shippingCountryCode: 'US',
      shippingCountry: 'United States',
      shippingProvince: 'IL',
      shippingCity: 'Springfield',
      shippingAddress: '1 Main St',
      shippingCustomerName: 'A',
      logisticName: 'CJPacket Ordinary',
      fromCountryCode: 'CN',
      payType: 3,
      products: [{ vid: p.variants[0].vid, quantity: 1 }],
    };
    const byHand = async () =>
      (
        await fetch(`${fake.baseUrl}/shopping/order/createOrderV2`, {
          method: 'POST',
          headers: { 'CJ-Access-Token': accessToken, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
    expect((await byHand()).code).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await byHand()).code).toBe(200);
    expect(await ordersAtCj(body.orderNumber)).toHaveLength(2);

    // The service's create is answered by nobody, and the list filter is not honoured: the retry still finds it.
    const order = await placeOrder(svc, shop, { productIndex: 1 });
    await control('POST', '/faults', { timeoutAfterCreateNext: 1, listIgnoresOrderNumbers: true });
    const res = await submit(svc, shop, order.id);
    const so = await settles(shop, res.body.result._id, 'submitted');
    expect(await ordersAtCj(so.supplierOrderNumber)).toHaveLength(1);
    expect(so.events.map((e: any) => e.type)).toContain('foundAtSupplier');
    // A retry of a submitted order is refused; the number stays with its one order.
    const retry = await soAction(svc, shop, so._id, 'retry');
    expect(retry.status).toBe(409);
    expect(await ordersAtCj(so.supplierOrderNumber)).toHaveLength(1);
  }, 40000);
});

// ---------------------------------------------------------------- review reasons

describe('every mapped CJ code reaches its review reason through dispatch', () => {
  test('insufficientBalance (1604000): created at CJ, not paid; after a top-up a retry pays the same order once', async () => {
    const shop = await openCjShop({ balance: '0.00' });
    const res = await submit(svc, shop, (await placeOrder(svc, shop)).id, { payNow: true });
    const so = await pausedAs(shop, res.body.result._id, 'insufficientBalance');
    expect(so.retryable).toBe(false);
    expect(so.supplierOrderId).toMatch(/^SD/);
    expect(so.reviewMessage).toMatch(/1604000/);
    await control('POST', `/accounts/${shop.cj.openId}`, { balance: '5000.00' });
    const retried = await soAction(svc, shop, so._id, 'retry');
    expect(retried.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, reviewReason: null });
    expect(await ordersAtCj(so.supplierOrderNumber)).toHaveLength(1);
    expect(await paymentsAtCj(so.supplierOrderNumber)).toHaveLength(1);
  });

  test('variantUnavailable: CJ refuses the create (1602001), or the variant was taken off the shelves; nothing is ordered', async () => {
    const shop = await openCjShop({ products: 2 });
    await control('POST', '/faults', { failNext: { path: '/shopping/order/createOrderV2', code: 1602001, message: 'Product not found', count: 1 } });
    const refused = await submit(svc, shop, (await placeOrder(svc, shop)).id);
    const a = await pausedAs(shop, refused.body.result._id, 'variantUnavailable');
    expect(a.reviewMessage).toMatch(/1602001/);
    expect(await ordersAtCj(a.supplierOrderNumber)).toHaveLength(0);

    await control('POST', `/variants/${shop.products[1].supplierVariantId}`, { removed: true });
    const removed = await submit(svc, shop, (await placeOrder(svc, shop, { productIndex: 1 })).id);
    const b = await pausedAs(shop, removed.body.result._id, 'variantUnavailable');
    expect(await ordersAtCj(b.supplierOrderNumber)).toHaveLength(0);
  });

  test("destinationUnsupported: no shipping method to the country, and CJ's country code refusal (1605002)", async () => {
    const shop = await openCjShop();
    await control('POST', '/countries/NZ', { served: false });
    try {
      const nz = await submit(
        svc,
        shop,
        (await placeOrder(svc, shop, { destination: { ...US_ADDRESS, country: 'NZ', city: 'Auckland', postalCode: '1010' } })).id,
      );
      await pausedAs(shop, nz.body.result._id, 'destinationUnsupported');
    } finally {
      await control('POST', '/countries/NZ', { served: true });
    }
    await control('POST', '/faults', { failNext: { path: '/logistic/freightCalculate', code: 1605002, message: 'Country code not found', count: 1 } });
    const coded = await submit(svc, shop, (await placeOrder(svc, shop)).id);
    const so = await pausedAs(shop, coded.body.result._id, 'destinationUnsupported');
    expect(so.reviewMessage).toMatch(/1605002/);
    expect((await received()).orders.filter((o: any) => o.openId === shop.cj.openId)).toHaveLength(0);
  });

  test("supplierRefused with CJ's words, cleaned of contact details; retryable, and a retry creates the order once", async () => {
    const shop = await openCjShop();
    await control('POST', '/faults', {
      failNext: {
        path: '/shopping/order/createOrderV2',
        code: 1603000,
        message: 'Order create fail: address incomplete, call +1 555 123 4567 or write to ops@cj.test',
        count: 1,
      },
    });
    const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
    const so = await pausedAs(shop, res.body.result._id, 'supplierRefused');
    expect(so.retryable).toBe(true);
    expect(so.reviewMessage).toContain('address incomplete');
    expect(so.reviewMessage).not.toMatch(/555|ops@cj\.test/);
    const retried = await soAction(svc, shop, so._id, 'retry');
    expect(retried.body.result.status).toBe('submitted');
    expect(await ordersAtCj(retried.body.result.supplierOrderNumber)).toHaveLength(1);
  });

  test.each([
    ['a burst of 5xx answers', (openId: string) => ({ unavailableAccounts: [openId] })],
    ['CJ busy (1600000) on every call', () => ({ failNext: { path: '*', code: 1600000, message: 'System busy', count: 40 } })],
    ['too many requests (1600200) on every call', () => ({ failNext: { path: '*', code: 1600200, message: 'Too Many Requests', count: 60 } })],
  ])(
    'connectionUnhealthy after the retries are used up: %s',
    async (_label, faults) => {
      const shop = await openCjShop();
      await control('POST', '/faults', faults(shop.cj.openId));
      const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
      expect(res.body.result.status).toBe('failed');
      const so = await pausedAs(shop, res.body.result._id, 'connectionUnhealthy', 25000);
      expect(so.retryable).toBe(true);
      expect(so.events.map((e: any) => e.type)).toEqual(expect.arrayContaining(['failed', 'automaticRetry', 'paused']));
      expect((await received()).orders.filter((o: any) => o.openId === shop.cj.openId)).toHaveLength(0);
    },
    40000,
  );

  test.each([
    ['too many requests (1600200)', 1600200],
    ['request quota used up (1600201)', 1600201],
  ])('rate limits answer reads 503 but never open the circuit: %s', async (_label, code) => {
    const shop = await openCjShop();
    const balance = () => svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
    await control('POST', '/faults', { failNext: { path: '*', code, message: 'Too Many Requests', count: 30 } });
    for (let i = 0; i < 6; i++) expect([i, (await balance()).body.error?.code]).toEqual([i, 'supplierUnavailable']);
    await control('DELETE', '/faults');
    const [row] = (await svc.db.query('SELECT consecutive_failures, circuit_open_until FROM supplier_connections WHERE id = $1', [shop.connId])).rows;
    expect(row).toEqual({ consecutive_failures: 0, circuit_open_until: null });
    expect((await balance()).status).toBe(200);
  });

  test('connectionUnhealthy when the daily points are used up (HTTP 429, 1600201)', async () => {
    // 10 points: the import's product read (10) uses them up; every later product read is refused.
    const shop = await openCjShop({ account: { points: 10 } });
    const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
    const so = await pausedAs(shop, res.body.result._id, 'connectionUnhealthy', 25000);
    expect(so.reviewMessage).toMatch(/points/);
    expect((await received()).quotaRejections).toBeGreaterThan(0);
  }, 40000);
});

test('every key and token the CJ-format server issued is checked by the scan', async () => {
  for (const acc of accounts) {
    const info = await control('GET', `/accounts/${acc.openId}`);
    for (const t of info.tokens) seen.secrets.add(t);
  }
  expect(seen.secrets.size).toBeGreaterThan(accounts.length * 3);
});

leakScanTest();
