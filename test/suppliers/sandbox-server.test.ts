import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEMO_ACCOUNT,
  signSandboxNotification,
  startSandboxSupplier,
  verifySandboxNotification,
  type Order,
  type Product,
  type RunningSandboxSupplier,
  type Variant,
} from '../../server/sandboxes/supplier';
import { Catalogue } from '../../server/sandboxes/supplier/catalogue';

// Webhook failures to receivers of earlier tests would otherwise be logged to stderr.
process.env.SANDBOX_LOG_LEVEL ??= 'silent';

/* eslint-disable @typescript-eslint/no-explicit-any */
interface Reply {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

interface Keys {
  accountId: string;
  liveKey: string;
  testKey: string;
}

async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; form?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let payload: string | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(opts.body);
  }
  const res = await fetch(base + path, { method, headers, body: payload, signal: opts.signal, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // HTML pages stay as text.
  }
  return { status: res.status, body, headers: res.headers, text };
}

const US: Record<string, string> = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
};

async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let sbx: RunningSandboxSupplier;
let catalogue: Product[];
const usedVariants = new Set<string>();
let numberSeq = 0;

const v1 = (method: string, path: string, key: string, body?: unknown) => call(sbx.baseUrl, method, `/v1${path}`, { key, body });
const control = (method: string, path: string, body?: unknown) => call(sbx.baseUrl, method, `/control${path}`, { body });

function orderNumber(prefix = 'T'): string {
  numberSeq++;
  return `${prefix}-${Date.now().toString(36)}-${numberSeq}`;
}

async function newAccount(balanceMinor = 100_000, testBalanceMinor?: number): Promise<Keys> {
  const r = await control('POST', '/accounts', { balanceMinor, testBalanceMinor });
  expect(r.status).toBe(201);
  expect(r.body.liveKey).toMatch(/^sbx_live_/);
  expect(r.body.testKey).toMatch(/^sbx_test_/);
  return r.body as Keys;
}

async function fetchAll(base: string, key: string): Promise<Product[]> {
  const all: Product[] = [];
  for (let page = 1; ; page++) {
    const r = await call(base, 'GET', `/v1/products?page=${page}&pageSize=100`, { key });
    expect(r.status).toBe(200);
    all.push(...r.body.items);
    if (all.length >= r.body.total || r.body.items.length === 0) return all;
  }
}

/** A variant no other test touches, ready to order: available, shipped to `country`, with a known stock and cost. */
async function freshVariant(opts: { country?: string; stock?: number; notShippedTo?: string } = {}): Promise<{ product: Product; variant: Variant }> {
  const country = opts.country ?? 'US';
  for (const product of catalogue) {
    if (!product.shipsTo.includes(country)) continue;
    if (opts.notShippedTo && product.shipsTo.includes(opts.notShippedTo)) continue;
    for (const variant of product.variants) {
      if (!variant.available || usedVariants.has(variant.id)) continue;
      usedVariants.add(variant.id);
      const stock = opts.stock ?? 50;
      const r = await control('POST', `/variants/${variant.id}`, { stock });
      expect(r.status).toBe(200);
      return { product, variant: { ...variant, stock } };
    }
  }
  throw new Error('catalogue exhausted');
}

async function createOrder(key: string, variantId: string, quantity = 1, extra: { orderNumber?: string; destination?: Record<string, string> } = {}) {
  return v1('POST', '/orders', key, {
    orderNumber: extra.orderNumber ?? orderNumber(),
    items: [{ variantId, quantity }],
    destination: extra.destination ?? US,
  });
}

async function received(): Promise<any> {
  const r = await control('GET', '/received');
  expect(r.status).toBe(200);
  return r.body;
}

beforeAll(async () => {
  sbx = await startSandboxSupplier({ port: 0, control: true });
  catalogue = await fetchAll(sbx.baseUrl, DEMO_ACCOUNT.liveKey);
});

afterAll(async () => {
  await sbx.close();
});

afterEach(async () => {
  await control('DELETE', '/faults');
});

describe('catalogue', () => {
  let a: RunningSandboxSupplier;
  let b: RunningSandboxSupplier;
  let other: RunningSandboxSupplier;

  beforeAll(async () => {
    [a, b, other] = await Promise.all([
      startSandboxSupplier({ seed: 42 }),
      startSandboxSupplier({ seed: 42 }),
      startSandboxSupplier({ seed: 7, productCount: 1000 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close(), other.close()]);
  });

  test('two starts with the same seed serve the identical catalogue of >= 1000 products', async () => {
    const [first, second, third] = await Promise.all([
      fetchAll(a.baseUrl, DEMO_ACCOUNT.liveKey),
      fetchAll(b.baseUrl, DEMO_ACCOUNT.liveKey),
      fetchAll(other.baseUrl, DEMO_ACCOUNT.liveKey),
    ]);
    expect(first).toHaveLength(1200);
    expect(second).toEqual(first);
    expect(third).toHaveLength(1000);
    expect(third.map((p) => p.title)).not.toEqual(first.slice(0, 1000).map((p) => p.title));
    // The in-process control server uses the same default seed.
    expect(catalogue).toEqual(first);
  });

  test('products have the documented shape, 1-4 variants, integer costs and some zero stock', () => {
    const allowed = new Set(['US', 'CA', 'GB', 'DE', 'FR', 'NL', 'ES', 'IT', 'AU', 'JP']);
    // Collect offenders rather than calling expect 10k times.
    const bad = catalogue.filter(
      (p) =>
        !/^SBX-P\d{5}$/.test(p.id) ||
        p.url !== `https://shop.sandbox-supplier.test/p/${p.id}` ||
        p.currency !== 'USD' ||
        p.shipsTo.length === 0 ||
        p.shipsTo.some((c) => !allowed.has(c)) ||
        p.variants.length < 1 ||
        p.variants.length > 4 ||
        p.variants.some(
          (v, i) =>
            v.id !== `${p.id}-V${i + 1}` ||
            !Number.isSafeInteger(v.costMinor) ||
            v.costMinor <= 0 ||
            !Number.isSafeInteger(v.stock) ||
            v.stock < 0 ||
            typeof v.available !== 'boolean',
        ),
    );
    expect(bad.map((p) => p.id)).toEqual([]);
    const variants = catalogue.flatMap((p) => p.variants);
    expect(variants.filter((v) => v.stock === 0).length).toBeGreaterThan(0);
    expect(variants.filter((v) => !v.available).length).toBeGreaterThan(0);
    expect(new Set(catalogue.map((p) => p.id)).size).toBe(catalogue.length);
    expect(new Set(catalogue.map((p) => p.title)).size).toBeGreaterThan(900);
    expect(new Set(variants.map((v) => v.sku)).size).toBe(variants.length);
  });

  test('builds 1200 products, the same ones for the same seed', () => {
    const built = new Catalogue(42, 1200);
    expect(built.products).toHaveLength(1200);
    expect(new Catalogue(42, 1200).products).toEqual(built.products);
  });

  test('search is a case-insensitive substring match over title, sku and id, with paging', async () => {
    const expected = catalogue.filter((p) => [p.title, p.id, ...p.variants.map((v) => v.sku)].some((s) => s.toLowerCase().includes('lamp')));
    expect(expected.length).toBeGreaterThan(5);

    const first = await v1('GET', '/products?q=lAmP&page=1&pageSize=5', DEMO_ACCOUNT.liveKey);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 5, total: expected.length });
    expect(first.body.items.map((p: Product) => p.id)).toEqual(expected.slice(0, 5).map((p) => p.id));
    const second = await v1('GET', '/products?q=LAMP&page=2&pageSize=5', DEMO_ACCOUNT.liveKey);
    expect(second.body.items.map((p: Product) => p.id)).toEqual(expected.slice(5, 10).map((p) => p.id));

    const target = catalogue[41];
    const bySku = await v1('GET', `/products?q=${encodeURIComponent(target.variants[0].sku.toLowerCase())}`, DEMO_ACCOUNT.liveKey);
    expect(bySku.body.items.map((p: Product) => p.id)).toEqual([target.id]);
    const byId = await v1('GET', `/products?q=${target.id.toLowerCase()}`, DEMO_ACCOUNT.liveKey);
    expect(byId.body.total).toBe(1);

    const none = await v1('GET', '/products?q=zzzz-no-such-thing', DEMO_ACCOUNT.liveKey);
    expect(none.body).toEqual({ items: [], page: 1, pageSize: 50, total: 0 });

    const clamped = await v1('GET', '/products?pageSize=500', DEMO_ACCOUNT.liveKey);
    expect(clamped.body.pageSize).toBe(100);
    expect(clamped.body.items).toHaveLength(100);
    expect(clamped.body.total).toBe(1200);

    const bad = await v1('GET', '/products?page=0', DEMO_ACCOUNT.liveKey);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalidRequest');
  });

  test('single product by id, 404 productNotFound otherwise, and the human product page', async () => {
    const target = catalogue[10];
    const one = await v1('GET', `/products/${target.id}`, DEMO_ACCOUNT.liveKey);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(target);

    const missing = await v1('GET', '/products/SBX-P99999', DEMO_ACCOUNT.liveKey);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('productNotFound');

    const page = await call(sbx.baseUrl, 'GET', `/p/${target.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain(target.variants[0].sku);
    const noPage = await call(sbx.baseUrl, 'GET', '/p/SBX-P99999');
    expect(noPage.status).toBe(404);
  });

  test('without control: true the control API does not exist', async () => {
    for (const [method, path] of [
      ['GET', '/control/received'],
      ['POST', '/control/accounts'],
      ['POST', '/control/faults'],
      ['POST', '/control/reset'],
    ]) {
      const r = await call(a.baseUrl, method, path, method === 'POST' ? { body: {} } : {});
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('notFound');
    }
    // The demo account still makes the sandbox usable by hand.
    const account = await call(a.baseUrl, 'GET', '/v1/account', { key: DEMO_ACCOUNT.liveKey });
    expect(account.body).toEqual({ accountId: 'acct_demo', environment: 'live', balanceMinor: 100000, currency: 'USD' });
  });
});

describe('auth', () => {
  test('missing, malformed or unknown credentials are refused with invalidCredentials', async () => {
    const keys = await newAccount();
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: `Basic ${keys.liveKey}` },
      { authorization: 'Bearer sbx_live_0000000000' },
      { authorization: 'Bearer sbx_at_forged' },
    ];
    for (const headers of cases) {
      const res = await fetch(`${sbx.baseUrl}/v1/account`, { headers });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('invalidCredentials');
    }
    const ok = await v1('GET', '/account', keys.liveKey);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ accountId: keys.accountId, environment: 'live', balanceMinor: 100000, currency: 'USD' });
  });
});

describe('test and live environments', () => {
  test('are isolated: orders, order numbers and balances', async () => {
    const keys = await newAccount(100_000, 50_000);
    const { variant } = await freshVariant();
    const number = orderNumber('ENV');

    const testAccount = await v1('GET', '/account', keys.testKey);
    expect(testAccount.body).toMatchObject({ accountId: keys.accountId, environment: 'test', balanceMinor: 50_000 });

    const inTest = await createOrder(keys.testKey, variant.id, 1, { orderNumber: number });
    expect(inTest.status).toBe(201);

    const liveLookup = await v1('GET', `/orders?orderNumber=${number}`, keys.liveKey);
    expect(liveLookup.body.items).toEqual([]);
    const liveGet = await v1('GET', `/orders/${inTest.body.id}`, keys.liveKey);
    expect(liveGet.status).toBe(404);
    expect(liveGet.body.error.code).toBe('orderNotFound');
    const livePay = await v1('POST', `/orders/${inTest.body.id}/pay`, keys.liveKey);
    expect(livePay.status).toBe(404);

    // The same number is free in live.
    const inLive = await createOrder(keys.liveKey, variant.id, 1, { orderNumber: number });
    expect(inLive.status).toBe(201);
    expect(inLive.body.id).not.toBe(inTest.body.id);

    const testLookup = await v1('GET', `/orders?orderNumber=${number}`, keys.testKey);
    expect(testLookup.body.items.map((o: Order) => o.id)).toEqual([inTest.body.id]);

    const paid = await v1('POST', `/orders/${inTest.body.id}/pay`, keys.testKey);
    expect(paid.status).toBe(200);
    expect((await v1('GET', '/account', keys.testKey)).body.balanceMinor).toBe(50_000 - inTest.body.costs.totalMinor);
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(100_000);

    const seen = (await received()).orders.filter((o: any) => o.orderNumber === number);
    expect(seen.map((o: any) => o.environment).sort()).toEqual(['live', 'test']);
  });
});

describe('orders', () => {
  test('create answers 201 with costs in minor units and reserves stock; lookup by number and id', async () => {
    const keys = await newAccount();
    const { product, variant } = await freshVariant({ stock: 20 });
    const number = orderNumber();
    const dest = { ...US, line2: 'Apt 4', phone: '+1 555 0100', email: 'ada@example.test' };
    const created = await createOrder(keys.liveKey, variant.id, 3, { orderNumber: number, destination: dest });
    expect(created.status).toBe(201);
    const order = created.body as Order;
    expect(order.id).toMatch(/^SBX-O/);
    expect(order).toMatchObject({
      orderNumber: number,
      status: 'created',
      paid: false,
      items: [{ variantId: variant.id, quantity: 3, unitCostMinor: variant.costMinor }],
      costs: {
        itemsMinor: variant.costMinor * 3,
        shippingMinor: 499 + 200,
        totalMinor: variant.costMinor * 3 + 699,
        currency: 'USD',
      },
      destination: dest,
      shipping: null,
    });
    expect(order.createdAt).toBe(order.updatedAt);

    const after = await v1('GET', `/products/${product.id}`, keys.liveKey);
    expect(after.body.variants.find((v: Variant) => v.id === variant.id).stock).toBe(17);

    const byNumber = await v1('GET', `/orders?orderNumber=${encodeURIComponent(number)}`, keys.liveKey);
    expect(byNumber.body.items).toEqual([order]);
    const unknownNumber = await v1('GET', '/orders?orderNumber=never-used', keys.liveKey);
    expect(unknownNumber.body.items).toEqual([]);
    const byId = await v1('GET', `/orders/${order.id}`, keys.liveKey);
    expect(byId.body).toEqual(order);
    const missing = await v1('GET', '/orders/SBX-ONOPE', keys.liveKey);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('orderNotFound');
  });

  test('malformed bodies are refused with invalidRequest', async () => {
    const keys = await newAccount();
    const { variant } = await freshVariant();
    const good = { orderNumber: orderNumber(), items: [{ variantId: variant.id, quantity: 1 }], destination: US };
    const bad: unknown[] = [
      { ...good, orderNumber: '' },
      { ...good, orderNumber: 'x'.repeat(65) },
      { ...good, items: [] },
      { ...good, items: [{ variantId: variant.id, quantity: 0 }] },
      { ...good, items: [{ variantId: variant.id, quantity: 1.5 }] },
      { ...good, destination: { ...US, country: 'USA' } },
      { ...good, destination: { ...US, postalCode: undefined } },
    ];
    for (const body of bad) {
      const r = await v1('POST', '/orders', keys.liveKey, body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalidRequest');
    }
    const broken = await fetch(`${sbx.baseUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.liveKey}`, 'content-type': 'application/json' },
      body: '{"orderNumber":',
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('invalidJson');
    expect((await received()).ordersByNumber[good.orderNumber]).toBeUndefined();
  });

  test('a duplicate order number is refused with the existing order id', async () => {
    const keys = await newAccount();
    const { variant } = await freshVariant();
    const number = orderNumber('DUP');
    const first = await createOrder(keys.liveKey, variant.id, 1, { orderNumber: number });
    expect(first.status).toBe(201);
    const again = await createOrder(keys.liveKey, variant.id, 1, { orderNumber: number });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'orderNumberExists', orderId: first.body.id });
    // Duplicate check comes before the variant check.
    const dupBadVariant = await createOrder(keys.liveKey, 'SBX-P00000-V9', 1, { orderNumber: number });
    expect(dupBadVariant.body.error.code).toBe('orderNumberExists');
    expect((await received()).ordersByNumber[number]).toBe(1);
  });

  test('pay deducts the balance once; paying twice is alreadyPaid', async () => {
    const keys = await newAccount(100_000);
    const { variant } = await freshVariant();
    const order = (await createOrder(keys.liveKey, variant.id, 2)).body as Order;

    const paid = await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id: order.id, status: 'paid', paid: true });
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(100_000 - order.costs.totalMinor);

    const twice = await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('alreadyPaid');
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(100_000 - order.costs.totalMinor);

    const payments = (await received()).payments.filter((p: any) => p.orderId === order.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ orderNumber: order.orderNumber, amountMinor: order.costs.totalMinor });
  });

  test('insufficient balance answers 402 and changes nothing', async () => {
    const keys = await newAccount(100);
    const { variant } = await freshVariant();
    const order = (await createOrder(keys.liveKey, variant.id)).body as Order;
    expect(order.costs.totalMinor).toBeGreaterThan(100);

    const refused = await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficientBalance');
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(100);
    expect((await v1('GET', `/orders/${order.id}`, keys.liveKey)).body).toMatchObject({ status: 'created', paid: false });
    expect((await received()).payments.some((p: any) => p.orderId === order.id)).toBe(false);

    // Topping up through control makes the same order payable.
    const topUp = await control('POST', `/accounts/${keys.accountId}/balance`, { balanceMinor: order.costs.totalMinor });
    expect(topUp.body).toEqual({ accountId: keys.accountId, environment: 'live', balanceMinor: order.costs.totalMinor });
    const paid = await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    expect(paid.status).toBe(200);
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(0);
  });

  test('cancel releases stock, refunds a paid order, is idempotent, and a cancelled order cannot be paid', async () => {
    const keys = await newAccount(100_000);
    const { product, variant } = await freshVariant({ stock: 10 });
    const stockOf = async () => (await v1('GET', `/products/${product.id}`, keys.liveKey)).body.variants.find((v: Variant) => v.id === variant.id).stock;

    const unpaid = (await createOrder(keys.liveKey, variant.id, 4)).body as Order;
    expect(await stockOf()).toBe(6);
    const cancelled = await v1('POST', `/orders/${unpaid.id}/cancel`, keys.liveKey);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', paid: false });
    expect(await stockOf()).toBe(10);
    const again = await v1('POST', `/orders/${unpaid.id}/cancel`, keys.liveKey);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    expect(await stockOf()).toBe(10);
    const payCancelled = await v1('POST', `/orders/${unpaid.id}/pay`, keys.liveKey);
    expect(payCancelled.status).toBe(409);
    expect(payCancelled.body.error.code).toBe('orderCancelled');

    const paidOrder = (await createOrder(keys.liveKey, variant.id, 1)).body as Order;
    await v1('POST', `/orders/${paidOrder.id}/pay`, keys.liveKey);
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(100_000 - paidOrder.costs.totalMinor);
    const refunded = await v1('POST', `/orders/${paidOrder.id}/cancel`, keys.liveKey);
    expect(refunded.body).toMatchObject({ status: 'cancelled', paid: false });
    expect((await v1('GET', '/account', keys.liveKey)).body.balanceMinor).toBe(100_000);
    expect((await received()).refunds.filter((r: any) => r.orderId === paidOrder.id)).toHaveLength(1);
  });

  test('unknown, unavailable and out-of-stock variants are variantUnavailable naming the variant', async () => {
    const keys = await newAccount();
    const unknown = await createOrder(keys.liveKey, 'SBX-P00000-V9');
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('variantUnavailable');
    expect(unknown.body.error.message).toContain('SBX-P00000-V9');

    const seeded = catalogue.flatMap((p) => p.variants).find((v) => !v.available)!;
    const fromCatalogue = await createOrder(keys.liveKey, seeded.id);
    expect(fromCatalogue.status).toBe(422);
    expect(fromCatalogue.body.error.message).toContain(seeded.id);

    const { variant } = await freshVariant({ stock: 1 });
    const tooMany = await createOrder(keys.liveKey, variant.id, 2);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('variantUnavailable');
    expect(tooMany.body.error.message).toContain(variant.id);

    // Two lines of one variant count together against stock.
    const split = await v1('POST', '/orders', keys.liveKey, {
      orderNumber: orderNumber(),
      items: [
        { variantId: variant.id, quantity: 1 },
        { variantId: variant.id, quantity: 1 },
      ],
      destination: US,
    });
    expect(split.body.error.code).toBe('variantUnavailable');

    const switchedOff = await control('POST', `/variants/${variant.id}`, { available: false });
    expect(switchedOff.body.variants.find((v: Variant) => v.id === variant.id).available).toBe(false);
    const offOrder = await createOrder(keys.liveKey, variant.id, 1);
    expect(offOrder.body.error.code).toBe('variantUnavailable');
    await control('POST', `/variants/${variant.id}`, { available: true });
    expect((await createOrder(keys.liveKey, variant.id, 1)).status).toBe(201);
  });

  test('destinations outside shipsTo, or switched off by control, are destinationUnsupported', async () => {
    const keys = await newAccount();
    const { variant: noJapan } = await freshVariant({ country: 'US', notShippedTo: 'JP' });
    const jp = await createOrder(keys.liveKey, noJapan.id, 1, { destination: { ...US, country: 'JP' } });
    expect(jp.status).toBe(422);
    expect(jp.body.error.code).toBe('destinationUnsupported');

    // Destination is checked before stock.
    const both = await createOrder(keys.liveKey, noJapan.id, 1000, { destination: { ...US, country: 'JP' } });
    expect(both.body.error.code).toBe('destinationUnsupported');

    const { variant } = await freshVariant({ country: 'US' });
    const off = await control('POST', '/countries/us', { served: false });
    expect(off.body).toEqual({ country: 'US', served: false, unservedCountries: ['US'] });
    try {
      const refused = await createOrder(keys.liveKey, variant.id);
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('destinationUnsupported');
    } finally {
      const on = await control('POST', '/countries/US', { served: true });
      expect(on.body.unservedCountries).toEqual([]);
    }
    expect((await createOrder(keys.liveKey, variant.id)).status).toBe(201);
  });

  test('ship and deliver through control; cancel is refused once shipped', async () => {
    const keys = await newAccount();
    const { variant } = await freshVariant();
    const order = (await createOrder(keys.liveKey, variant.id)).body as Order;

    const early = await control('POST', `/orders/${order.id}/ship`, {});
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('invalidTransition');

    await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    const processing = await control('POST', `/orders/${order.id}/process`);
    expect(processing.body.status).toBe('processing');
    const shipped = await control('POST', `/orders/${order.id}/ship`, { carrier: 'UPS', trackingNumber: '1Z999' });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({ status: 'shipped', shipping: { carrier: 'UPS', trackingNumber: '1Z999' } });
    expect(typeof shipped.body.shipping.shippedAt).toBe('string');

    const cancel = await v1('POST', `/orders/${order.id}/cancel`, keys.liveKey);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('alreadyShipped');

    const delivered = await control('POST', `/orders/${order.id}/deliver`);
    expect(delivered.body.status).toBe('delivered');
    const seen = await v1('GET', `/orders/${order.id}`, keys.liveKey);
    expect(seen.body).toMatchObject({ status: 'delivered', paid: true, shipping: { carrier: 'UPS' } });
    expect((await v1('POST', `/orders/${order.id}/cancel`, keys.liveKey)).body.error.code).toBe('alreadyShipped');

    // Default carrier and tracking.
    const second = (await createOrder(keys.liveKey, variant.id)).body as Order;
    await v1('POST', `/orders/${second.id}/pay`, keys.liveKey);
    const defaults = await control('POST', `/orders/${second.id}/ship`);
    expect(defaults.body.shipping.carrier).toBe('SandboxPost');
    expect(defaults.body.shipping.trackingNumber).toMatch(/^SBX\d+$/);
    expect((await control('POST', '/orders/SBX-ONOPE/ship')).status).toBe(404);
  });
});

describe('faults', () => {
  test('latencyMs is added to every /v1 call', async () => {
    const timed = async () => {
      const started = performance.now();
      const r = await v1('GET', '/account', DEMO_ACCOUNT.liveKey);
      expect(r.status).toBe(200);
      return performance.now() - started;
    };
    // The injected latency is a floor, so it is checked exactly; the calls without it only need to be well under it
    // (3 s: a local call on a loaded machine never takes that long), not under some guess of a fast machine.
    const baseline = await timed();
    const set = await control('POST', '/faults', { latencyMs: 3000 });
    expect(set.body).toMatchObject({ latencyMs: 3000, failNext: 0, rejectKeys: false });
    const slow = await timed();
    expect(slow).toBeGreaterThanOrEqual(2990);
    await control('DELETE', '/faults');
    expect((await control('GET', '/faults')).body.latencyMs).toBe(0);
    const fast = await timed();
    expect(fast).toBeLessThan(3000);
    expect(baseline).toBeLessThan(3000);
  });

  test('failNext answers exactly N calls with 503 unavailable', async () => {
    const set = await control('POST', '/faults', { failNext: 2 });
    expect(set.body.failNext).toBe(2);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await v1('GET', '/account', DEMO_ACCOUNT.liveKey);
      statuses.push(r.status);
      if (r.status === 503) expect(r.body.error.code).toBe('unavailable');
    }
    expect(statuses).toEqual([503, 503, 200]);
    expect((await control('GET', '/faults')).body.failNext).toBe(0);
  });

  test('unavailableAccounts takes one account down and leaves the others up', async () => {
    const down = await newAccount();
    const up = await newAccount();
    await control('POST', '/faults', { unavailableAccounts: [down.accountId] });
    try {
      expect((await call(sbx.baseUrl, 'GET', '/v1/account', { key: down.liveKey })).status).toBe(503);
      expect((await call(sbx.baseUrl, 'GET', '/v1/account', { key: up.liveKey })).status).toBe(200);
    } finally {
      await control('DELETE', '/faults');
    }
    expect((await call(sbx.baseUrl, 'GET', '/v1/account', { key: down.liveKey })).status).toBe(200);
  });

  test('faults merge into the current set; DELETE clears them', async () => {
    await control('POST', '/faults', { failNext: 5 });
    const merged = await control('POST', '/faults', { refuseNext: { count: 2, message: 'nope' } });
    expect(merged.body).toEqual({
      latencyMs: 0,
      failNext: 5,
      timeoutAfterCreateNext: 0,
      refuseNext: { count: 2, message: 'nope' },
      rejectKeys: false,
      unavailableAccounts: [],
      silentAccounts: [],
      accountLatencyMs: {},
      shippingSurchargeMinor: 0,
    });
    const cleared = await control('DELETE', '/faults');
    expect(cleared.body).toEqual({
      latencyMs: 0,
      failNext: 0,
      timeoutAfterCreateNext: 0,
      refuseNext: null,
      rejectKeys: false,
      unavailableAccounts: [],
      silentAccounts: [],
      accountLatencyMs: {},
      shippingSurchargeMinor: 0,
    });
    expect((await control('POST', '/faults', { failNext: -1 })).status).toBe(400);
  });

  test('timeoutAfterCreateNext really creates the order but the caller never gets an answer', async () => {
    const keys = await newAccount();
    const { variant } = await freshVariant();
    const number = orderNumber('HANG');
    const before = await received();
    await control('POST', '/faults', { timeoutAfterCreateNext: 1 });

    const started = performance.now();
    const attempt = call(sbx.baseUrl, 'POST', '/v1/orders', {
      key: keys.liveKey,
      body: { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US },
      signal: AbortSignal.timeout(500),
    });
    await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);

    const after = await received();
    expect(after.ordersByNumber[number]).toBe(1);
    expect(after.orders.filter((o: any) => o.orderNumber === number)).toHaveLength(1);
    expect(after.createAttempts).toBe(before.createAttempts + 1);

    // What a careful adapter does next: look the number up, and a blind retry is a duplicate.
    const lookup = await v1('GET', `/orders?orderNumber=${number}`, keys.liveKey);
    expect(lookup.body.items).toHaveLength(1);
    const retry = await createOrder(keys.liveKey, variant.id, 1, { orderNumber: number });
    expect(retry.status).toBe(409);
    expect(retry.body.error.orderId).toBe(lookup.body.items[0].id);
    expect((await received()).ordersByNumber[number]).toBe(1);

    // The fault was used up.
    expect((await createOrder(keys.liveKey, variant.id)).status).toBe(201);
  });

  test('a hung create drops the socket after createHangMs, and close() does not wait for hung sockets', async () => {
    const short = await startSandboxSupplier({ control: true, createHangMs: 200 });
    try {
      await call(short.baseUrl, 'POST', '/control/faults', { body: { timeoutAfterCreateNext: 2 } });
      // Same default seed, so the snapshot's ids are valid here too.
      const product = catalogue.find((p) => p.variants[0].available && p.variants[0].stock > 2)!;
      const body = {
        orderNumber: 'H-1',
        items: [{ variantId: product.variants[0].id, quantity: 1 }],
        destination: { ...US, country: product.shipsTo[0] },
      };

      const started = performance.now();
      await expect(call(short.baseUrl, 'POST', '/v1/orders', { key: DEMO_ACCOUNT.liveKey, body })).rejects.toThrow();
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(180);
      expect(elapsed).toBeLessThan(5000);
      expect((await call(short.baseUrl, 'GET', '/control/received')).body.ordersByNumber['H-1']).toBe(1);

      // Second hang: close while it is held.
      const pending = call(short.baseUrl, 'POST', '/v1/orders', { key: DEMO_ACCOUNT.liveKey, body: { ...body, orderNumber: 'H-2' } });
      pending.catch(() => undefined);
      await waitFor(async () => (await call(short.baseUrl, 'GET', '/control/received')).body.ordersByNumber['H-2'] === 1);
    } finally {
      const closing = performance.now();
      await short.close();
      expect(performance.now() - closing).toBeLessThan(1000);
    }
  });

  test('refuseNext answers 422 orderRefused with the message, creates nothing, then stops', async () => {
    const keys = await newAccount();
    const { variant } = await freshVariant({ stock: 5 });
    await control('POST', '/faults', { refuseNext: { count: 1, message: 'Supplier is closed for stocktaking' } });

    // Validation failures come first and do not use up the refusal.
    const outOfStock = await createOrder(keys.liveKey, variant.id, 6);
    expect(outOfStock.body.error.code).toBe('variantUnavailable');
    expect((await control('GET', '/faults')).body.refuseNext).toEqual({ count: 1, message: 'Supplier is closed for stocktaking' });

    const number = orderNumber('REF');
    const refused = await createOrder(keys.liveKey, variant.id, 1, { orderNumber: number });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual({ code: 'orderRefused', message: 'Supplier is closed for stocktaking' });
    expect((await received()).ordersByNumber[number]).toBeUndefined();
    expect((await v1('GET', `/orders?orderNumber=${number}`, keys.liveKey)).body.items).toEqual([]);

    const accepted = await createOrder(keys.liveKey, variant.id, 1, { orderNumber: number });
    expect(accepted.status).toBe(201);
  });

  test('a shipping quote answers what a create charges; shippingSurchargeMinor makes the create charge more than quoted', async () => {
    const keys = await newAccount();
    const { product, variant } = await freshVariant({ stock: 10 });
    const quote = await call(sbx.baseUrl, 'POST', '/v1/shipping/quote', { key: keys.liveKey, body: { items: [{ variantId: variant.id, quantity: 3 }] } });
    // The days at most: the product's own longest delivery, as the catalogue shows it.
    const shown = (await v1('GET', `/products/${product.id}`, keys.liveKey)).body;
    expect(shown.deliveryDays.max).toBeGreaterThan(0);
    expect(quote.body).toEqual({ service: 'standard', costMinor: 699, currency: 'USD', maxDays: shown.deliveryDays.max });
    expect((await call(sbx.baseUrl, 'POST', '/v1/shipping/quote', { key: keys.liveKey, body: { items: [] } })).status).toBe(400);
    const plain = await createOrder(keys.liveKey, variant.id, 3);
    expect(plain.body.costs.shippingMinor).toBe(699);
    await control('POST', '/faults', { shippingSurchargeMinor: 250 });
    const more = await createOrder(keys.liveKey, variant.id, 3);
    expect(more.body.costs).toMatchObject({ shippingMinor: 949, totalMinor: more.body.costs.itemsMinor + 949 });
    await control('DELETE', '/faults');
  });

  test('rejectKeys makes every /v1 call 401 until cleared', async () => {
    const keys = await newAccount();
    await control('POST', '/faults', { rejectKeys: true });
    const refused = await v1('GET', '/account', keys.liveKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalidCredentials');
    expect((await v1('GET', '/products', keys.testKey)).status).toBe(401);
    await control('DELETE', '/faults');
    expect((await v1('GET', '/account', keys.liveKey)).status).toBe(200);
  });
});

describe('signed notifications', () => {
  interface Hit {
    path: string;
    signature: string;
    raw: string;
    body: any;
  }
  let receiver: http.Server;
  let receiverUrl: string;
  const hits: Hit[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        hits.push({ path: req.url ?? '', signature: String(req.headers['x-sandbox-signature'] ?? ''), raw, body: JSON.parse(raw) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('webhook registration keeps its secret unless rotated; GET never shows it', async () => {
    const keys = await newAccount();
    const first = await v1('PUT', '/webhook', keys.liveKey, { url: `${receiverUrl}/a` });
    expect(first.status).toBe(200);
    expect(first.body.url).toBe(`${receiverUrl}/a`);
    expect(first.body.signingSecret).toMatch(/^whsec_/);
    const again = await v1('PUT', '/webhook', keys.liveKey, { url: `${receiverUrl}/b` });
    expect(again.body.signingSecret).toBe(first.body.signingSecret);
    const rotated = await v1('PUT', '/webhook', keys.liveKey, { url: `${receiverUrl}/b`, rotate: true });
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(first.body.signingSecret);
    const testEnv = await v1('PUT', '/webhook', keys.testKey, { url: `${receiverUrl}/b` });
    expect(testEnv.body.signingSecret).not.toBe(rotated.body.signingSecret);

    expect((await v1('GET', '/webhook', keys.liveKey)).body).toEqual({ url: `${receiverUrl}/b` });
    const fresh = await newAccount();
    expect((await v1('GET', '/webhook', fresh.liveKey)).body).toEqual({ url: null });
    const bad = await v1('PUT', '/webhook', keys.liveKey, { url: 'ftp://example.test/hook' });
    expect(bad.status).toBe(400);
  });

  test('order status changes and product changes arrive signed, per account and environment', async () => {
    const keys = await newAccount();
    const live = (await v1('PUT', '/webhook', keys.liveKey, { url: `${receiverUrl}/live` })).body;
    const test = (await v1('PUT', '/webhook', keys.testKey, { url: `${receiverUrl}/test` })).body;
    const otherKeys = await newAccount();
    const other = (await v1('PUT', '/webhook', otherKeys.liveKey, { url: `${receiverUrl}/other` })).body;
    const { variant, product } = await freshVariant();
    const sentBefore = (await received()).notificationsSent;

    const order = (await createOrder(keys.liveKey, variant.id)).body as Order;
    await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    await control('POST', `/orders/${order.id}/ship`, { carrier: 'DHL', trackingNumber: 'JD0001' });
    await control('POST', `/orders/${order.id}/deliver`);

    const orderHits = await waitFor(() => {
      const mine = hits.filter((h) => h.body.type === 'order.updated' && h.body.data.orderId === order.id);
      return mine.length >= 3 && mine;
    });
    expect(orderHits.map((h) => h.body.data.status).sort()).toEqual(['delivered', 'paid', 'shipped']);
    for (const hit of orderHits) {
      expect(hit.path).toBe('/live');
      expect(hit.body).toMatchObject({ type: 'order.updated', data: { orderId: order.id, orderNumber: order.orderNumber } });
      expect(hit.body.id).toMatch(/^evt_/);
      const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(hit.signature)![1]);
      expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(60);
      expect(hit.signature).toBe(signSandboxNotification(live.signingSecret, hit.raw, t));
      // Independent of the helper: the documented recipe.
      expect(hit.signature).toBe(`t=${t},v1=${createHmac('sha256', live.signingSecret).update(`${t}.${hit.raw}`).digest('hex')}`);
      expect(hit.signature).not.toBe(signSandboxNotification(test.signingSecret, hit.raw, t));
      expect(verifySandboxNotification(live.signingSecret, hit.raw, hit.signature)).toBe(true);
      expect(verifySandboxNotification(live.signingSecret, `${hit.raw} `, hit.signature)).toBe(false);
    }

    // A test-environment order notifies only the test registration.
    const testOrder = (await createOrder(keys.testKey, variant.id)).body as Order;
    await v1('POST', `/orders/${testOrder.id}/cancel`, keys.testKey);
    const testHit = await waitFor(() => hits.find((h) => h.body.data.orderId === testOrder.id));
    expect(testHit.path).toBe('/test');
    expect(testHit.body.data.status).toBe('cancelled');
    expect(testHit.signature).toBe(signSandboxNotification(test.signingSecret, testHit.raw, Number(/t=(\d+)/.exec(testHit.signature)![1])));

    // Product changes go to every registration (other tests' registrations get them too, hence the path filter).
    const secrets: Record<string, string> = { '/live': live.signingSecret, '/test': test.signingSecret, '/other': other.signingSecret };
    await control('POST', `/variants/${variant.id}`, { costMinor: variant.costMinor + 100 });
    const productHits = await waitFor(() => {
      const mine = hits.filter((h) => h.body.type === 'product.updated' && h.body.data.productId === product.id && h.path in secrets);
      return mine.length >= 3 && mine;
    });
    expect(productHits.map((h) => h.path).sort()).toEqual(['/live', '/other', '/test']);
    for (const hit of productHits) {
      const secret = secrets[hit.path];
      expect(verifySandboxNotification(secret, hit.raw, hit.signature)).toBe(true);
      expect(hit.body.data).toEqual({ productId: product.id, variantIds: [variant.id] });
    }
    const updated = await v1('GET', `/products/${product.id}`, keys.liveKey);
    expect(updated.body.variants.find((v: Variant) => v.id === variant.id).costMinor).toBe(variant.costMinor + 100);

    expect((await received()).notificationsSent - sentBefore).toBeGreaterThanOrEqual(6);
  });

  test('silentAccounts: the order still changes, but no notification is sent for those accounts', async () => {
    const quiet = await newAccount();
    const loud = await newAccount();
    await v1('PUT', '/webhook', quiet.liveKey, { url: `${receiverUrl}/quiet` });
    await v1('PUT', '/webhook', loud.liveKey, { url: `${receiverUrl}/loud` });
    const { variant } = await freshVariant();
    const quietOrder = (await createOrder(quiet.liveKey, variant.id)).body as Order;
    const loudOrder = (await createOrder(loud.liveKey, variant.id)).body as Order;
    await control('POST', '/faults', { silentAccounts: [quiet.accountId] });
    try {
      expect((await control('GET', '/faults')).body.silentAccounts).toEqual([quiet.accountId]);
      await v1('POST', `/orders/${quietOrder.id}/pay`, quiet.liveKey);
      await v1('POST', `/orders/${loudOrder.id}/pay`, loud.liveKey);
      // The loud one arrives; the quiet one was paid all the same, and nothing was sent for it.
      await waitFor(() => hits.find((h) => h.body.data?.orderId === loudOrder.id));
      expect((await v1('GET', `/orders/${quietOrder.id}`, quiet.liveKey)).body.status).toBe('paid');
      expect(hits.filter((h) => h.body.data?.orderId === quietOrder.id)).toEqual([]);
      expect((await control('POST', '/faults', { silentAccounts: 'all' })).status).toBe(400);
    } finally {
      await control('POST', '/faults', { silentAccounts: [] });
    }
    await control('POST', `/orders/${quietOrder.id}/ship`, {});
    await waitFor(() => hits.find((h) => h.path === '/quiet' && h.body.data.status === 'shipped'));
  });
});

describe('auto ship', () => {
  test('paid orders ship after autoShipAfterMs; cancelled ones do not', async () => {
    const auto = await startSandboxSupplier({ control: true, autoShipAfterMs: 150 });
    try {
      const key = DEMO_ACCOUNT.liveKey;
      const product = (await call(auto.baseUrl, 'GET', '/v1/products/SBX-P00003', { key })).body as Product;
      const variantId = product.variants[0].id;
      await call(auto.baseUrl, 'POST', `/control/variants/${variantId}`, { body: { stock: 10, available: true } });
      const destination = { ...US, country: product.shipsTo[0] };
      const make = async (n: string) => {
        const r = await call(auto.baseUrl, 'POST', '/v1/orders', { key, body: { orderNumber: n, items: [{ variantId, quantity: 1 }], destination } });
        expect(r.status).toBe(201);
        const paid = await call(auto.baseUrl, 'POST', `/v1/orders/${r.body.id}/pay`, { key });
        expect(paid.body.status).toBe('paid');
        return r.body as Order;
      };
      const shipsLater = await make('AUTO-1');
      const cancelled = await make('AUTO-2');
      await call(auto.baseUrl, 'POST', `/v1/orders/${cancelled.id}/cancel`, { key });

      const shipped = await waitFor(async () => {
        const r = await call(auto.baseUrl, 'GET', `/v1/orders/${shipsLater.id}`, { key });
        return r.body.status === 'shipped' && (r.body as Order);
      });
      expect(shipped.shipping).toMatchObject({ carrier: 'SandboxPost' });
      expect(shipped.shipping!.trackingNumber).toMatch(/^SBX\d+$/);
      await new Promise((r) => setTimeout(r, 200));
      expect((await call(auto.baseUrl, 'GET', `/v1/orders/${cancelled.id}`, { key })).body.status).toBe('cancelled');
    } finally {
      await auto.close();
    }
  });
});

describe('OAuth sign-in', () => {
  const redirectUri = 'http://localhost:5999/oauth/callback';
  const clientId = 'store-suppliers-test';

  async function authorize(accountId: string, state = 'st-1'): Promise<string> {
    const qs = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state, accountId, approve: '1' });
    const r = await call(sbx.baseUrl, 'GET', `/oauth/authorize?${qs}`);
    expect(r.status).toBe(302);
    const location = new URL(r.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe(state);
    return location.searchParams.get('code')!;
  }

  const exchange = (code: string, uri = redirectUri, client = clientId, grant = 'authorization_code') =>
    call(sbx.baseUrl, 'POST', '/oauth/token', { body: { grant_type: grant, code, redirect_uri: uri, client_id: client } });

  test('authorisation page, form approval, code exchange, and a replayed code refused', async () => {
    const keys = await newAccount(12_345);
    const qs = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state: 'abc' });
    const page = await call(sbx.baseUrl, 'GET', `/oauth/authorize?${qs}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/oauth/authorize"');
    expect(page.text).toContain('name="accountId"');
    expect(page.text).toContain('Approve');

    const approved = await call(sbx.baseUrl, 'POST', '/oauth/authorize', {
      form: { client_id: clientId, redirect_uri: redirectUri, state: 'abc', accountId: keys.accountId, decision: 'approve' },
    });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('abc');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const token = await exchange(code);
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ access_token: expect.stringMatching(/^sbx_at_/), token_type: 'bearer', expires_in: 86400, account_id: keys.accountId });

    const me = await v1('GET', '/account', token.body.access_token);
    expect(me.body).toEqual({ accountId: keys.accountId, environment: 'live', balanceMinor: 12_345, currency: 'USD' });

    const replay = await exchange(code);
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('invalidGrant');
    expect((await received()).oauthClientIds).toContain(clientId);
  });

  test('redirect_uri and client_id must match; grant_type must be authorization_code', async () => {
    const keys = await newAccount();
    const code = await authorize(keys.accountId);
    const wrongUri = await exchange(code, 'http://localhost:5999/elsewhere');
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.body.error.code).toBe('invalidGrant');
    const wrongClient = await exchange(code, redirectUri, 'someone-else');
    expect(wrongClient.body.error.code).toBe('invalidGrant');
    const wrongGrant = await exchange(code, redirectUri, clientId, 'client_credentials');
    expect(wrongGrant.body.error.code).toBe('unsupportedGrantType');
    // Failed attempts did not burn the code.
    expect((await exchange(code)).status).toBe(200);
    expect((await exchange('sbx_code_unknown')).body.error.code).toBe('invalidGrant');
  });

  test('codes expire after 5 minutes', async () => {
    const keys = await newAccount();
    const code = await authorize(keys.accountId);
    const realNow = Date.now();
    const spy = jest.spyOn(Date, 'now').mockReturnValue(realNow + 5 * 60 * 1000 + 1000);
    let expired: Reply;
    try {
      expired = await exchange(code);
    } finally {
      spy.mockRestore();
    }
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('invalidGrant');
    expect(expired.body.error.message).toMatch(/expired/);
  });

  test('sign-in by email, deny, and unknown accounts', async () => {
    const email = `owner-${Date.now()}@shop.example`;
    const created = await control('POST', '/accounts', { email });
    const code = await authorize(email.toUpperCase());
    expect((await exchange(code)).body.account_id).toBe(created.body.accountId);

    const denied = await call(sbx.baseUrl, 'POST', '/oauth/authorize', {
      body: { client_id: clientId, redirect_uri: redirectUri, state: 'x', decision: 'deny' },
    });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();

    const unknown = await call(
      sbx.baseUrl,
      'GET',
      `/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, accountId: 'acct_nobody', approve: '1' })}`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknownAccount');

    const badRedirect = await call(sbx.baseUrl, 'GET', `/oauth/authorize?client_id=x&redirect_uri=javascript:alert(1)`);
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.body.error.code).toBe('invalidRequest');
  });
});

describe('reset', () => {
  test('clears orders, payments, faults and catalogue changes but keeps accounts', async () => {
    const keys = await newAccount();
    const { product, variant } = await freshVariant({ stock: 3 });
    const original = catalogue.find((p) => p.id === product.id)!;
    const order = (await createOrder(keys.liveKey, variant.id)).body as Order;
    await v1('POST', `/orders/${order.id}/pay`, keys.liveKey);
    await control('POST', `/variants/${variant.id}`, { costMinor: 1 });
    await control('POST', '/countries/GB', { served: false });
    await control('POST', '/faults', { failNext: 3 });

    const reset = await control('POST', '/reset');
    expect(reset.status).toBe(200);
    const after = await received();
    expect(after).toMatchObject({ orders: [], ordersByNumber: {}, createAttempts: 0, payments: [], notificationsSent: 0 });
    expect((await control('GET', '/faults')).body.failNext).toBe(0);
    expect((await v1('GET', `/products/${product.id}`, keys.liveKey)).body).toEqual(original);
    expect((await v1('GET', `/orders/${order.id}`, keys.liveKey)).status).toBe(404);
    expect((await v1('GET', '/account', keys.liveKey)).status).toBe(200);
    // GB is served again: switching IT off lists only IT.
    expect((await control('POST', '/countries/IT', { served: false })).body.unservedCountries).toEqual(['IT']);
    await control('POST', '/countries/IT', { served: true });

    // Catalogue is back to seed values, so re-fetching matches the snapshot taken at start.
    expect(await fetchAll(sbx.baseUrl, keys.liveKey)).toEqual(catalogue);
  });
});
