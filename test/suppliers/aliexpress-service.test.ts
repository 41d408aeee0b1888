/**
 * The service with the AliExpress adapter, against the local AliExpress-format server: the catalogue, connecting by
 * sign-in, browse/import/link sync, dispatch with each shipping-method rule, payment at create, read-back through every
 * status with tracking, and several AliExpress orders behind one supplier order. What AliExpress "received" is read
 * from the server's /control, never from the service.
 */
import { eventually, leakScanTest, seen } from '../support/harness';
import { placeOrder, soAction, submit } from '../support/orders';
import { AeShop, AeWorld, startAeWorld } from './aliexpress-support';

/* eslint-disable @typescript-eslint/no-explicit-any */

let w: AeWorld;
beforeAll(async () => {
  w = await startAeWorld('aliexpress-service');
});
afterAll(async () => w?.close());
afterEach(async () => w.control('DELETE', '/faults'));

const creates = async (out: string) => (await w.control('GET', '/received')).creates.filter((c: any) => c.outOrderId === out);

describe('catalogue, automation and sign-in', () => {
  test('the catalogue offers AliExpress: sign-in, no balance, no cancel, no notifications, paid at create', async () => {
    const shop = await w.openShop();
    const res = await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/catalogue`, { key: shop.owner.key });
    const ae = res.body.result.find((e: any) => e.key === 'aliexpress');
    expect(ae).toMatchObject({
      name: 'AliExpress Dropshipping',
      available: true,
      capabilities: {
        authKind: 'signIn',
        hasSandbox: false,
        balance: false,
        cancel: false,
        notifications: false,
        payment: 'atCreate',
        syncFields: ['cost', 'stock', 'availability'],
      },
    });
    expect(ae.settingsSchema.properties).toHaveProperty('shipToCountry');
    const byKey = await w.svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
      key: shop.owner.key,
      body: { supplierKey: 'aliexpress', mode: 'live', credentials: {} },
    });
    expect([byKey.status, byKey.body.error.code]).toEqual([400, 'signInRequired']);
    const balance = await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
    expect([balance.status, balance.body.error.code]).toEqual([400, 'balanceNotSupported']);
  });

  test('the shipping-method rule is part of the automation: validated, stored, in the OpenAPI document', async () => {
    const shop = await w.openShop();
    const base = `/api/store-suppliers/${shop.storeId}/${shop.connId}/automation`;
    const put = (body: unknown) => w.svc.call('PUT', base, { key: shop.owner.key, body });
    const conn = (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result[0];
    expect(conn.automation.shippingMethod).toEqual({ rule: 'cheapest' });
    for (const bad of [{ rule: 'slowest' }, { rule: 'named' }, { rule: 'named', service: '' }, { rule: 'fastest', service: 'DHL' }, 'cheapest']) {
      const res = await put({ shippingMethod: bad });
      expect([JSON.stringify(bad), res.status, res.body.error.code]).toEqual([JSON.stringify(bad), 400, 'validationFailed']);
    }
    const named = await put({ shippingMethod: { rule: 'named', service: 'CAINIAO_STANDARD' } });
    expect(named.body.result.automation).toMatchObject({ shippingMethod: { rule: 'named', service: 'CAINIAO_STANDARD' }, level: 'manual' });
    // Other fields keep the rule.
    expect((await put({ automaticPayment: true })).body.result.automation.shippingMethod).toEqual({ rule: 'named', service: 'CAINIAO_STANDARD' });
    const doc = (await w.svc.call('GET', '/api/store-suppliers/openapi.json')).body;
    const text = JSON.stringify(doc);
    expect(text).toContain('"shippingMethod"');
    expect(text).toContain('"atCreate"');
  });

  test('connect by signing in: tokens kept sealed, the buyer as label, healthy; signing in again renews the same connection for free', async () => {
    const shop = await w.openShop({ products: 0 });
    const list = (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      supplierKey: 'aliexpress',
      hasCredentials: true,
      accountLabel: `AliExpress buyer ${shop.buyer.nick}`,
      webhookUrl: expect.stringMatching(new RegExp(`/webhook/aliexpress/${shop.connId}\\.${shop.storeId.replace(/-/g, '')}\\.[A-Za-z0-9_-]{22}$`)),
    });
    const [row] = (await w.svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE id = $1', [shop.connId])).rows;
    const buyer = await w.control('GET', `/buyers/${shop.buyer.userId}`);
    expect(buyer.issued.length).toBe(2);
    for (const token of buyer.issued) expect(row.credentials_sealed).not.toContain(token);
    const tested = await w.svc.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/test`, { key: shop.owner.key });
    expect(tested.body.result.health).toMatchObject({ status: 'healthy', message: `Connected as AliExpress buyer ${shop.buyer.nick}` });

    const credits = async () => (await w.svc.call('GET', '/api/api-key/current', { key: shop.owner.key })).body.result.credits;
    const before = await credits();
    const again = await w.signIn(shop.owner, shop.storeId, shop.buyer.userId);
    expect(again.status).toBe(201);
    expect(again.body.result.id).toBe(shop.connId);
    expect(await credits()).toEqual(before);
    expect((await w.control('GET', `/buyers/${shop.buyer.userId}`)).issued.length).toBe(4);
    expect((await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result).toHaveLength(1);
  });
});

describe('browse, import and link sync', () => {
  test('browse pages through the search, one product with variants for the ship-to country, a product address resolves without a call', async () => {
    const shop = await w.openShop({ products: 0 });
    const base = `/api/store-suppliers/${shop.storeId}/${shop.connId}`;
    const first = await w.svc.call('GET', `${base}/products?pageSize=10`, { key: shop.owner.key });
    expect(first.status).toBe(200);
    const catalogue: any[] = await w.control('GET', '/catalogue');
    expect(first.body.result.pagination).toMatchObject({ hasMore: true, totalCount: catalogue.filter((p) => p.status === 'onSelling').length, pageSize: 10 });
    const next = await w.svc.call('GET', `${base}/products?pageSize=10&cursor=${encodeURIComponent(first.body.result.pagination.nextCursor)}`, {
      key: shop.owner.key,
    });
    expect(next.body.result.items[0].id).not.toBe(first.body.result.items[0].id);
    const p = catalogue[3];
    const one = await w.svc.call('GET', `${base}/products/${p.productId}`, { key: shop.owner.key });
    expect(one.body.result.variants.map((v: any) => [v.id, v.cost, v.stock])).toEqual(
      p.skus.map((s: any) => [`${p.productId}:${s.skuId}`, { amountMinor: s.priceCents, currency: 'USD' }, s.stock]),
    );
    await w.control('POST', `/products/${catalogue[4].productId}`, { notSoldTo: ['US'] });
    expect((await w.svc.call('GET', `${base}/products/${catalogue[4].productId}`, { key: shop.owner.key })).status).toBe(404);
    const resolved = await w.svc.call('POST', `${base}/products/resolve-url`, {
      key: shop.owner.key,
      body: { url: `https://de.aliexpress.com/item/${p.productId}.html?spm=x` },
    });
    expect(resolved.body.result.supplierProductId).toBe(p.productId);
    // An address that is not an AliExpress product page is refused from its text alone.
    const calls = (await w.control('GET', '/received')).calls;
    expect(
      (
        await w.svc.call('POST', `${base}/products/resolve-url`, {
          key: shop.owner.key,
          body: { url: `https://aliexpress.evil.test/item/${p.productId}.html` },
        })
      ).body.error.code,
    ).toBe('unsupportedUrl');
    expect((await w.control('GET', '/received')).calls).toEqual(calls);
  });

  test("import makes store products at AliExpress's cost; sync brings a new cost and stock, and a product taken off sale", async () => {
    const shop = await w.openShop();
    const [p] = (await w.control('GET', '/catalogue')).filter((x: any) => x.productId === shop.products[0].supplierProductId);
    const links = (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/links`, { key: shop.owner.key })).body.result.items;
    expect(links[0]).toMatchObject({
      supplierKey: 'aliexpress',
      supplierProductId: p.productId,
      variants: [{ supplierVariantId: `${p.productId}:${p.skus[0].skuId}`, costMinor: p.skus[0].priceCents, currency: 'USD' }],
    });
    await w.control('POST', `/products/${p.productId}`, { skus: [{ skuId: p.skus[0].skuId, priceCents: 4321, stock: 7 }] });
    const synced = await w.svc.call('POST', `/api/store-suppliers/${shop.storeId}/links/${links[0].id}/sync`, { key: shop.owner.key });
    expect(synced.body.result).toMatchObject({ lastSyncError: null, variants: [{ costMinor: 4321, stock: 7, available: true }] });
    expect((await w.svc.db.query('SELECT price_minor::int AS price, stock FROM store_variants WHERE id = $1', [shop.products[0].variantId])).rows[0]).toEqual({
      price: 4321,
      stock: 7,
    });
    await w.control('POST', `/products/${p.productId}`, { status: 'offline' });
    const off = await w.svc.call('POST', `/api/store-suppliers/${shop.storeId}/links/${links[0].id}/sync`, { key: shop.owner.key });
    expect(off.body.result.variants[0]).toMatchObject({ available: false });
  });
});

describe('dispatch through AliExpress', () => {
  test.each([
    ['cheapest', { rule: 'cheapest' }, 'CAINIAO_ECONOMY'],
    ['fastest', { rule: 'fastest' }, 'AE_DIRECT_EXPRESS'],
    ['named', { rule: 'named', service: 'cainiao_standard' }, 'CAINIAO_STANDARD'],
  ])('submit with the %s rule: created once with our number as out_order_id and that shipping service', async (_label, shippingMethod, service) => {
    const shop = await w.openShop({ automation: { shippingMethod } });
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop, { quantity: 2 })).id);
    expect(res.status).toBe(200);
    const so = res.body.result;
    expect(so).toMatchObject({ status: 'submitted', supplierKey: 'aliexpress', supplierStatus: 'PLACE_ORDER_SUCCESS', payment: { status: 'unpaid' } });
    const [made] = await creates(so.supplierOrderNumber);
    expect(made).toMatchObject({ accepted: true, tryToPay: false, items: [{ productId: shop.products[0].supplierProductId, service, count: 2 }] });
    expect(made.address).toMatchObject({ country: 'US', zip: '62701', full_name: 'Ada Lovelace', phone_country: '+1', mobile_no: '5550100199' });
    const orders = await w.ordersAt(so.supplierOrderNumber);
    expect(orders.map((o: any) => o.id)).toEqual([so.supplierOrderId]);
    // The landed cost at confirmation carries the freight quote of the service the create then took (issue 51).
    const pid = shop.products[0].supplierProductId;
    const fee = (
      { CAINIAO_ECONOMY: 90 + 30 * 2, AE_DIRECT_EXPRESS: 1200 + 150 * 2, CAINIAO_STANDARD: 150 + 40 * 2 + (Number(pid.slice(-3)) % 5) * 10 } as Record<
        string,
        number
      >
    )[service];
    expect(so.landedCosts.find((l: any) => l.stage === 'confirmation')).toMatchObject({
      currency: 'USD',
      itemsMinor: shop.products[0].costMinor * 2,
      shippingMinor: fee,
      totalMinor: shop.products[0].costMinor * 2 + fee,
    });
  });

  test('a named service AliExpress does not offer pauses as destinationUnsupported, and nothing is ordered', async () => {
    const shop = await w.openShop({ automation: { shippingMethod: { rule: 'named', service: 'PIGEON_POST' } } });
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    const so = await w.pausedAs(shop, res.body.result._id, 'destinationUnsupported');
    expect(so.reviewMessage).toContain('PIGEON_POST');
    expect(await w.ordersAt(so.supplierOrderNumber)).toHaveLength(0);
  });

  test('pay at create: with automatic payment the create pays (try_to_pay), read back as paid, never paid again', async () => {
    const shop = await w.openShop({ automation: { automaticPayment: true, allowUnpaidOrders: true } });
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    const so = await w.settles(shop, res.body.result._id, 'confirmed');
    expect(so).toMatchObject({ supplierStatus: 'WAIT_SELLER_SEND_GOODS', payment: { status: 'paid' } });
    // Read as paid by the pay step or by the scheduled read-back, whichever came first; no payment call either way.
    const types = so.events.map((e: any) => e.type);
    expect(types.includes('alreadyPaidAtSupplier') || types.includes('readBack')).toBe(true);
    expect(types).not.toContain('paid');
    const [made] = await creates(so.supplierOrderNumber);
    expect(made).toMatchObject({ tryToPay: true, accepted: true });
    expect((await w.ordersAt(so.supplierOrderNumber))[0].paidAtCreate).toBe(true);
    expect((await soAction(w.svc, shop, so._id, 'pay')).status).toBe(409);
  });

  test("pay now without automatic payment: the create pays (try_to_pay), recorded as the caller's choice, never paid again", async () => {
    const shop = await w.openShop({ automation: { automaticPayment: false, allowUnpaidOrders: true } });
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id, { payNow: true });
    const so = await w.settles(shop, res.body.result._id, 'confirmed');
    expect(so.payment.status).toBe('paid');
    const [made] = await creates(so.supplierOrderNumber);
    expect(made).toMatchObject({ tryToPay: true, accepted: true });
    expect(so.events.map((e: any) => e.type)).not.toContain('paid');
    expect(await w.ordersAt(so.supplierOrderNumber)).toHaveLength(1);
  });

  test("without automatic payment, pay is refused with AliExpress's way (the website); once paid there a retry reads it back, no second order", async () => {
    const shop = await w.openShop();
    const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
    expect(res.body.result.status).toBe('submitted');
    const paid = await soAction(w.svc, shop, res.body.result._id, 'pay');
    expect(paid.body.result).toMatchObject({ status: 'needsReview', reviewReason: 'supplierRefused', retryable: true });
    expect(paid.body.result.reviewMessage).toMatch(/pay this order on aliexpress\.com/);
    await w.control('POST', `/orders/${res.body.result.supplierOrderId}/pay`);
    const retried = await soAction(w.svc, shop, res.body.result._id, 'retry');
    expect(retried.status).toBe(200);
    const so = await w.settles(shop, res.body.result._id, 'confirmed');
    expect(so).toMatchObject({ payment: { status: 'paid' }, supplierOrderId: res.body.result.supplierOrderId });
    // Found by the retry's look-up (the ids kept under our number), or read back first: never created again.
    const types = so.events.map((e: any) => e.type);
    expect(types.slice(types.indexOf('retry')).some((t: string) => t === 'foundAtSupplier' || t === 'readBack')).toBe(true);
    expect(types).not.toContain('paid');
    expect(await creates(so.supplierOrderNumber)).toHaveLength(1);
  });

  test('read back through every status; tracking reaches the order part', async () => {
    const shop = await w.openShop({ automation: { automaticPayment: true, allowUnpaidOrders: true } });
    const order = await placeOrder(w.svc, shop);
    const res = await submit(w.svc, shop, order.id);
    const id = res.body.result._id;
    const aeId = (await w.settles(shop, id, 'confirmed')).supplierOrderId;
    const move = (body: Record<string, unknown>) => w.control('POST', `/orders/${aeId}`, body);
    await move({ orderStatus: 'SELLER_PART_SEND_GOODS', logisticsStatus: 'SELLER_SEND_PART_GOODS' });
    expect((await w.settles(shop, id, 'processing')).supplierStatus).toBe('SELLER_PART_SEND_GOODS');
    await move({ orderStatus: 'WAIT_BUYER_ACCEPT_GOODS', logisticsStatus: 'SELLER_SEND_GOODS', trackingNumber: 'LP00123456789CN', carrier: 'Cainiao' });
    const shipped = await w.settles(shop, id, 'shipped');
    expect(shipped.shipping).toMatchObject({ carrier: 'Cainiao', trackingNumber: 'LP00123456789CN' });
    const part = () =>
      w.svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key }).then((r) => r.body.result.fulfilmentGroups[0]);
    expect(await part()).toMatchObject({ status: 'shipped', shipment: { carrier: 'Cainiao', trackingNumber: 'LP00123456789CN' } });
    await move({ orderStatus: 'FINISH', logisticsStatus: 'BUYER_ACCEPT_GOODS' });
    await w.settles(shop, id, 'delivered');
    expect((await part()).status).toBe('delivered');
    expect((await w.getSo(shop, id)).events.filter((e: any) => e.type === 'readBack').length).toBeGreaterThanOrEqual(3);
  }, 60000);

  test('several sellers: one create makes two AliExpress orders, one supplier order whose status is the slowest of them', async () => {
    const shop = await w.openShop({ products: 2, automation: { automaticPayment: true, allowUnpaidOrders: true } });
    const catalogue: any[] = await w.control('GET', '/catalogue');
    const sellers = shop.products.map((p) => catalogue.find((x) => x.productId === p.supplierProductId).sellerId);
    expect(new Set(sellers).size).toBe(2);
    const order = await w.svc.call('POST', `/api/store-orders/${shop.storeId}`, {
      key: shop.owner.key,
      body: {
        items: shop.products.map((p) => ({ productId: p.productId, variantId: p.variantId, quantity: 1 })),
        destination: { name: 'Ada Lovelace', line1: '12 Analytical Street', city: 'Springfield', postalCode: '62701', country: 'US', phone: '+1 555 010 0199' },
        paymentMethod: 'manual',
        contractModel: 'standard',
      },
    });
    const res = await submit(w.svc, shop, order.body.result.id);
    const so = await w.settles(shop, res.body.result._id, 'confirmed');
    const orders = await w.ordersAt(so.supplierOrderNumber);
    expect(orders).toHaveLength(2);
    expect(so.supplierOrderId).toBe(orders.map((o: any) => o.id).join(','));
    const total = orders.flatMap((o: any) => o.lines).reduce((s: number, l: any) => s + l.priceCents * l.count + l.feeCents, 0);
    expect(so.costs).toMatchObject({ totalMinor: total, currency: 'USD' });
    // One ships: the supplier order stays at the slower one; both shipped: shipped.
    await w.control('POST', `/orders/${orders[0].id}`, { orderStatus: 'WAIT_BUYER_ACCEPT_GOODS', trackingNumber: 'LP1', carrier: 'Cainiao' });
    // Read back with the one shipped: both AliExpress statuses show, and the supplier order stays with the slower.
    const half = await eventually(
      async () => {
        const s = await w.getSo(shop, so._id);
        return s.supplierStatus === 'WAIT_BUYER_ACCEPT_GOODS,WAIT_SELLER_SEND_GOODS' ? s : undefined;
      },
      25000,
      'the read-back of the half-shipped order',
    );
    expect(half.status).toBe('confirmed');
    await w.control('POST', `/orders/${orders[1].id}`, { orderStatus: 'WAIT_BUYER_ACCEPT_GOODS', trackingNumber: 'LP2', carrier: 'YunExpress' });
    const shipped = await w.settles(shop, so._id, 'shipped');
    expect(shipped.shipping).toMatchObject({ trackingNumber: 'LP1, LP2', carrier: 'Cainiao, YunExpress' });
    expect(shipped.supplierStatus).toBe('WAIT_BUYER_ACCEPT_GOODS,WAIT_BUYER_ACCEPT_GOODS');
  }, 60000);
});

test('the app secret the service signs with is checked by the scan', () => {
  expect(seen.secrets.has(w.fake.appSecret)).toBe(true);
});

leakScanTest();
