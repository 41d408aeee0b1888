/**
 * Contract tests for the sandbox adapters, over real HTTP against the in-process sandbox supplier.
 * Faults come from its control API; /control/received tells what the supplier really saw.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectionMode, SupplierAdapter, SupplierCallContext } from '../../server/suppliers/adapter';
import { createSandboxAdapters } from '../../server/suppliers/sandbox/adapter';
import { failure } from './contract';
import { DEMO_ACCOUNT, startSandboxSupplier, type Product, type RunningSandboxSupplier, type Variant } from '../../server/sandboxes/supplier';

// Webhook deliveries to receivers that have gone would otherwise be logged to stderr.
process.env.SANDBOX_LOG_LEVEL ??= 'silent';

/* eslint-disable @typescript-eslint/no-explicit-any */
interface Keys {
  accountId: string;
  liveKey: string;
  testKey: string;
}

let sbx: RunningSandboxSupplier;
let catalogue: Product[];
let apiKey: SupplierAdapter;
let signIn: SupplierAdapter;
const usedVariants = new Set<string>();
let seq = 0;

async function raw(method: string, path: string, opts: { key?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(sbx.baseUrl + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function control(method: string, path: string, body?: unknown): Promise<any> {
  const r = await raw(method, `/control${path}`, { body });
  expect(r.status).toBeLessThan(300);
  return r.body;
}

async function newAccount(balanceMinor = 100_000, testBalanceMinor = 100_000): Promise<Keys> {
  return (await control('POST', '/accounts', { balanceMinor, testBalanceMinor })) as Keys;
}

function ctx(mode: ConnectionMode, credentials: Record<string, string>, timeoutMs = 5000): SupplierCallContext {
  return { connectionId: `conn-${mode}`, mode, credentials, settings: { shippingSpeed: 'standard', orderNotePrefix: '' }, timeoutMs };
}

const live = (k: Keys, extra: Record<string, string> = {}) => ctx('live', { apiKey: k.liveKey, ...extra });
const test_ = (k: Keys) => ctx('test', { apiKey: k.testKey });

function orderNumber(prefix = 'A'): string {
  seq++;
  return `${prefix}-${Date.now().toString(36)}-${seq}`;
}

const US = { name: 'Ada Lovelace', line1: '1 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' };

/** A variant no other test touches: available, shipped to `country`, with a known stock. */
async function freshVariant(opts: { country?: string; notShippedTo?: string; stock?: number } = {}): Promise<{ product: Product; variant: Variant }> {
  const country = opts.country ?? 'US';
  for (const product of catalogue) {
    if (!product.shipsTo.includes(country)) continue;
    if (opts.notShippedTo && product.shipsTo.includes(opts.notShippedTo)) continue;
    for (const variant of product.variants) {
      if (!variant.available || usedVariants.has(variant.id)) continue;
      usedVariants.add(variant.id);
      const stock = opts.stock ?? 50;
      await control('POST', `/variants/${variant.id}`, { stock });
      return { product, variant: { ...variant, stock } };
    }
  }
  throw new Error('catalogue exhausted');
}

async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  sbx = await startSandboxSupplier({ port: 0, control: true });
  [apiKey, signIn] = createSandboxAdapters({ baseUrl: sbx.baseUrl });
  catalogue = [];
  for (let page = 1; ; page++) {
    const r = await raw('GET', `/v1/products?page=${page}&pageSize=100`, { key: DEMO_ACCOUNT.liveKey });
    catalogue.push(...r.body.items);
    if (catalogue.length >= r.body.total) break;
  }
});

afterAll(async () => {
  await sbx.close();
});

afterEach(async () => {
  await control('DELETE', '/faults');
});

describe('catalogue entries', () => {
  test('two adapters with the documented keys, capabilities and schemas', () => {
    expect(apiKey.entry.key).toBe('sandbox');
    expect(apiKey.entry.name).toBe('Sandbox Supplier');
    expect(apiKey.entry.capabilities).toEqual({
      authKind: 'apiKey',
      hasSandbox: true,
      balance: true,
      cancel: true,
      notifications: true,
      payment: 'balance',
      syncFields: ['cost', 'price', 'stock', 'title', 'availability'],
      // Issue 54: the sandbox takes claims through its API (the service sends them).
      claims: { via: 'api', deadlineDays: null, counted: 'fromShipping', where: "Sent by the service through the supplier's API." },
    });
    expect(apiKey.entry.credentialsSchema).toEqual({
      type: 'object',
      properties: { apiKey: { type: 'string', pattern: '^sbx_(live|test)_[A-Za-z0-9_]+$', maxLength: 200 } },
      required: ['apiKey'],
      additionalProperties: false,
    });
    expect(apiKey.entry.defaultSettings).toEqual({ shippingSpeed: 'standard', orderNotePrefix: '' });
    expect(apiKey.entry.settingsSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { shippingSpeed: { enum: ['standard', 'express'], default: 'standard' }, orderNotePrefix: { type: 'string', maxLength: 40 } },
    });
    expect(apiKey.signInUrl).toBeUndefined();
    expect(apiKey.exchangeSignInCode).toBeUndefined();

    expect(signIn.entry.key).toBe('sandbox-signin');
    expect(signIn.entry.name).toBe('Sandbox Supplier (sign-in)');
    expect(signIn.entry.capabilities).toEqual({ ...apiKey.entry.capabilities, authKind: 'signIn', hasSandbox: false, balance: false });
    expect(signIn.entry.credentialsSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(typeof signIn.signInUrl).toBe('function');
    expect(typeof signIn.exchangeSignInCode).toBe('function');
  });
});

describe('credentials', () => {
  test('live key on live and test key on test verify, labelled with account and environment', async () => {
    const k = await newAccount();
    await expect(apiKey.verifyCredentials(live(k))).resolves.toEqual({ accountLabel: `${k.accountId} (live)`, accountId: `sandbox:${k.accountId}:live` });
    await expect(apiKey.verifyCredentials(test_(k))).resolves.toEqual({ accountLabel: `${k.accountId} (test)`, accountId: `sandbox:${k.accountId}:test` });
  });

  test('a key for the other environment is rejected, saying which key is needed', async () => {
    const k = await newAccount();
    const liveOnTest = await failure(apiKey.verifyCredentials(ctx('test', { apiKey: k.liveKey })));
    expect(liveOnTest.kind).toBe('credentialsRejected');
    expect(liveOnTest.message).toMatch(/test key/);
    expect(liveOnTest.message).not.toContain(k.liveKey);
    const testOnLive = await failure(apiKey.verifyCredentials(ctx('live', { apiKey: k.testKey })));
    expect(testOnLive.kind).toBe('credentialsRejected');
    expect(testOnLive.message).toMatch(/live key/);
    expect(testOnLive.message).not.toContain(k.testKey);
  });

  test('an unknown key, a missing key and rejectKeys are credentialsRejected without echoing the key', async () => {
    const bogus = 'sbx_live_doesnotexist_0123456789';
    const unknown = await failure(apiKey.verifyCredentials(ctx('live', { apiKey: bogus })));
    expect(unknown.kind).toBe('credentialsRejected');
    expect(unknown.message).not.toContain(bogus);
    expect((await failure(apiKey.verifyCredentials(ctx('live', {})))).kind).toBe('credentialsRejected');
    expect((await failure(apiKey.getBalance(ctx('live', { apiKey: 'sbx_live_x\r\nX-Evil: 1' })))).kind).toBe('credentialsRejected');

    const k = await newAccount();
    await control('POST', '/faults', { rejectKeys: true });
    const rejected = await failure(apiKey.verifyCredentials(live(k)));
    expect(rejected.kind).toBe('credentialsRejected');
    expect(rejected.message).not.toContain(k.liveKey);
    expect((await failure(apiKey.getBalance(live(k)))).kind).toBe('credentialsRejected');
    await control('DELETE', '/faults');
    await expect(apiKey.verifyCredentials(live(k))).resolves.toEqual({ accountLabel: `${k.accountId} (live)`, accountId: `sandbox:${k.accountId}:live` });
  });
});

describe('health and balance', () => {
  test('healthCheck answers ok, then ok:false without throwing or leaking the key', async () => {
    const k = await newAccount();
    const good = await apiKey.healthCheck(live(k));
    expect(good.ok).toBe(true);
    expect(Number.isInteger(good.latencyMs)).toBe(true);
    expect(good.latencyMs).toBeGreaterThanOrEqual(0);
    expect(good.message).toContain(k.accountId);

    await control('POST', '/faults', { rejectKeys: true });
    const rejected = await apiKey.healthCheck(live(k));
    expect(rejected.ok).toBe(false);
    expect(rejected.message).not.toContain(k.liveKey);
    await control('DELETE', '/faults');

    await control('POST', '/faults', { failNext: 1 });
    const down = await apiKey.healthCheck(live(k));
    expect(down.ok).toBe(false);
    expect(down.message).toMatch(/503/);
  });

  test('an address nobody listens on is unavailable; healthCheck reports it', async () => {
    const gone = await startSandboxSupplier({ port: 0 });
    await gone.close();
    const [deadAdapter] = createSandboxAdapters({ baseUrl: gone.baseUrl });
    const k = ctx('live', { apiKey: DEMO_ACCOUNT.liveKey });
    const err = await failure(deadAdapter.getBalance(k));
    expect(err.kind).toBe('unavailable');
    expect(err.isOutage).toBe(true);
    expect(err.message).not.toContain(DEMO_ACCOUNT.liveKey);
    const health = await deadAdapter.healthCheck(k);
    expect(health.ok).toBe(false);
    expect(health.message).toMatch(/ECONNREFUSED|network/);
  });

  test('getBalance answers each environment its own integer balance', async () => {
    const k = await newAccount(12_345, 678);
    await expect(apiKey.getBalance(live(k))).resolves.toEqual({ amountMinor: 12_345, currency: 'USD' });
    await expect(apiKey.getBalance(test_(k))).resolves.toEqual({ amountMinor: 678, currency: 'USD' });
  });

  test('a 5xx is unavailable, and the next call works', async () => {
    const k = await newAccount(4_321);
    await control('POST', '/faults', { failNext: 1 });
    const err = await failure(apiKey.getBalance(live(k)));
    expect(err.kind).toBe('unavailable');
    expect(err.isOutage).toBe(true);
    expect((await control('GET', '/faults')).failNext).toBe(0);
    await expect(apiKey.getBalance(live(k))).resolves.toEqual({ amountMinor: 4_321, currency: 'USD' });
  });
});

describe('products', () => {
  test('search pages through every match with the cursor, in the supplier order, ending with null', async () => {
    const k = await newAccount();
    const expected = await raw('GET', '/v1/products?q=lamp&pageSize=100', { key: k.liveKey });
    expect(expected.body.total).toBeGreaterThan(14);
    const ids: string[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await apiKey.searchProducts(live(k), { query: 'lamp', cursor, pageSize: 7 });
      expect(page.total).toBe(expected.body.total);
      expect(page.items.length).toBeLessThanOrEqual(7);
      ids.push(...page.items.map((p) => p.id));
      cursors.push(page.nextCursor);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(ids).toEqual(expected.body.items.map((p: Product) => p.id));
    const pages = Math.ceil(expected.body.total / 7);
    expect(cursors).toHaveLength(pages);
    expect(cursors.slice(0, -1)).toEqual(Array.from({ length: pages - 1 }, (_, i) => String(i + 2)));
    expect(cursors[pages - 1]).toBeNull();
  });

  test('search without a query sees the whole catalogue; pageSize is capped; a bad cursor is refused', async () => {
    const k = await newAccount();
    const first = await apiKey.searchProducts(live(k), { pageSize: 500 });
    expect(first.total).toBe(catalogue.length);
    expect(first.items).toHaveLength(100);
    expect(first.items[0].id).toBe(catalogue[0].id);
    expect(first.nextCursor).toBe('2');
    const last = await apiKey.searchProducts(live(k), { pageSize: 100, cursor: String(Math.ceil(catalogue.length / 100)) });
    expect(last.nextCursor).toBeNull();
    expect(last.items[last.items.length - 1].id).toBe(catalogue[catalogue.length - 1].id);
    const none = await apiKey.searchProducts(live(k), { query: 'no-such-thing-xyz', pageSize: 10 });
    expect(none).toEqual({ items: [], nextCursor: null, total: 0 });
    expect((await failure(apiKey.searchProducts(live(k), { pageSize: 10, cursor: 'abc' }))).kind).toBe('refused');
  });

  test('getProduct maps costs to Money in minor units; an unknown id is notFound', async () => {
    const k = await newAccount();
    const source = catalogue[17];
    const product = await apiKey.getProduct(live(k), source.id);
    expect(product).toEqual({
      id: source.id,
      title: source.title,
      description: source.description,
      url: source.url,
      imageUrl: source.imageUrl,
      shipsTo: source.shipsTo,
      updatedAt: source.updatedAt,
      variants: source.variants.map((v) => ({
        id: v.id,
        sku: v.sku,
        title: v.title,
        options: v.options,
        cost: { amountMinor: v.costMinor, currency: 'USD' },
        stock: v.stock,
        available: v.available,
      })),
    });
    expect(product.variants.every((v) => Number.isSafeInteger(v.cost.amountMinor))).toBe(true);
    const missing = await failure(apiKey.getProduct(live(k), 'SBX-P99999'));
    expect(missing.kind).toBe('notFound');
    expect(missing.subject).toEqual({ productId: 'SBX-P99999' });
    expect((await failure(apiKey.getProduct(live(k), '../account'))).kind).toBe('notFound');
  });

  test.each([
    ['https://shop.sandbox-supplier.test/p/SBX-P00001', 'SBX-P00001'],
    ['https://shop.sandbox-supplier.test/p/SBX-P00017/', 'SBX-P00017'],
    ['https://shop.sandbox-supplier.test/p/SBX-P00017?ref=mail&x=1', 'SBX-P00017'],
    ['https://shop.sandbox-supplier.test/p/SBX-P00017#reviews', 'SBX-P00017'],
    ['https://SHOP.Sandbox-Supplier.TEST/p/SBX-P00002', 'SBX-P00002'],
    ['http://shop.sandbox-supplier.test/p/SBX-P00001', null],
    ['https://other.test/p/SBX-P00001', null],
    ['https://sandbox-supplier.test/p/SBX-P00001', null],
    ['https://shop.sandbox-supplier.test.evil.com/p/SBX-P00001', null],
    ['https://evil.com/shop.sandbox-supplier.test/p/SBX-P00001', null],
    ['https://user:pw@shop.sandbox-supplier.test/p/SBX-P00001', null],
    ['https://user@shop.sandbox-supplier.test/p/SBX-P00001', null],
    ['https://shop.sandbox-supplier.test:8443/p/SBX-P00001', null],
    ['https://127.0.0.1/p/SBX-P00001', null],
    ['https://localhost/p/SBX-P00001', null],
    ['https://[::1]/p/SBX-P00001', null],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['https://shop.sandbox-supplier.test/products/SBX-P00001', null],
    ['https://shop.sandbox-supplier.test/p/SBX-P00001/reviews', null],
    ['https://shop.sandbox-supplier.test/p/SBX-X00001', null],
    ['https://shop.sandbox-supplier.test/p/SBX-P', null],
    ['https://shop.sandbox-supplier.test/p/SBX-P00001-V1', null],
    ['https://shop.sandbox-supplier.test/p/', null],
    ['https://shop.sandbox-supplier.test/p/SBX-P%30%30001', null],
    ['https://shop.sandbox-supplier.test//p/SBX-P00001', null],
  ])('resolveProductUrl(%s) answers %s', (url, expected) => {
    expect(apiKey.resolveProductUrl(new URL(url))).toBe(expected);
    expect(signIn.resolveProductUrl(new URL(url))).toBe(expected);
  });
});

describe('orders', () => {
  test('create -> findOrderByNumber -> getOrder -> pay -> ship -> cancel refused as alreadyShipped', async () => {
    const k = await newAccount(100_000);
    const { variant } = await freshVariant();
    const number = orderNumber();
    const created = await apiKey.createOrder(live(k), { orderNumber: number, items: [{ variantId: variant.id, quantity: 2 }], destination: US });
    const itemsMinor = variant.costMinor * 2;
    expect(created).toEqual({
      supplierOrderId: expect.stringMatching(/^SBX-O/),
      orderNumber: number,
      supplierStatus: 'created',
      status: 'created',
      paid: false,
      costs: { itemsMinor, shippingMinor: 599, totalMinor: itemsMinor + 599, currency: 'USD' },
      shipping: null,
    });
    await expect(apiKey.findOrderByNumber(live(k), number)).resolves.toEqual(created);
    await expect(apiKey.getOrder(live(k), created.supplierOrderId)).resolves.toEqual(created);
    // The test environment is a separate world.
    await expect(apiKey.findOrderByNumber(test_(k), number)).resolves.toBeNull();
    await expect(apiKey.findOrderByNumber(live(k), orderNumber('never'))).resolves.toBeNull();

    const paid = await apiKey.payOrder(live(k), created.supplierOrderId);
    // Paid: the sandbox says when (issue 54: the delivery watch counts its days from it).
    expect(paid).toEqual({ ...created, supplierStatus: 'paid', status: 'paid', paid: true, paidAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    await expect(apiKey.getBalance(live(k))).resolves.toEqual({ amountMinor: 100_000 - (itemsMinor + 599), currency: 'USD' });
    const again = await failure(apiKey.payOrder(live(k), created.supplierOrderId));
    expect(again.kind).toBe('alreadyPaid');

    await control('POST', `/orders/${created.supplierOrderId}/ship`, { carrier: 'TestPost', trackingNumber: 'TRK123' });
    const shipped = await apiKey.getOrder(live(k), created.supplierOrderId);
    expect(shipped.status).toBe('shipped');
    expect(shipped.shipping).toEqual({ carrier: 'TestPost', trackingNumber: 'TRK123', shippedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    // The carrier's first scan comes with it (issue 54).
    expect(shipped.tracking).toEqual({
      events: [{ at: shipped.shipping!.shippedAt, description: 'Picked up by the carrier', location: 'Shenzhen, CN' }],
      exception: null,
      promisedMaxDays: expect.any(Number),
    });

    const cancel = await failure(apiKey.cancelOrder(live(k), created.supplierOrderId));
    expect(cancel.kind).toBe('alreadyShipped');
    await expect(apiKey.getOrder(live(k), created.supplierOrderId)).resolves.toEqual(shipped);
    const received = await control('GET', '/received');
    expect(received.ordersByNumber[number]).toBe(1);
    expect(received.payments.filter((p: any) => p.orderNumber === number)).toHaveLength(1);
    expect(received.refunds.filter((p: any) => p.orderNumber === number)).toHaveLength(0);
  });

  test('cancel of a paid order refunds it; paying a cancelled order is refused; unknown ids are notFound', async () => {
    const k = await newAccount(50_000);
    const { variant } = await freshVariant();
    const created = await apiKey.createOrder(live(k), { orderNumber: orderNumber(), items: [{ variantId: variant.id, quantity: 1 }], destination: US });
    await apiKey.payOrder(live(k), created.supplierOrderId);
    const cancelled = await apiKey.cancelOrder(live(k), created.supplierOrderId);
    expect(cancelled).toMatchObject({ status: 'cancelled', supplierStatus: 'cancelled', paid: false });
    await expect(apiKey.getBalance(live(k))).resolves.toEqual({ amountMinor: 50_000, currency: 'USD' });
    const pay = await failure(apiKey.payOrder(live(k), created.supplierOrderId));
    expect(pay.kind).toBe('refused');
    const missing = await failure(apiKey.getOrder(live(k), 'SBX-ONOPE'));
    expect(missing.kind).toBe('notFound');
    expect(missing.subject).toEqual({ supplierOrderId: 'SBX-ONOPE' });
    // Another environment's order does not exist for this key.
    expect((await failure(apiKey.getOrder(test_(k), created.supplierOrderId))).kind).toBe('notFound');
  });

  test('insufficientBalance on pay leaves balance and order untouched', async () => {
    const k = await newAccount(100);
    const { variant } = await freshVariant();
    const created = await apiKey.createOrder(live(k), { orderNumber: orderNumber(), items: [{ variantId: variant.id, quantity: 1 }], destination: US });
    expect(created.costs!.totalMinor).toBeGreaterThan(100);
    const err = await failure(apiKey.payOrder(live(k), created.supplierOrderId));
    expect(err.kind).toBe('insufficientBalance');
    expect(err.message).not.toContain(k.liveKey);
    await expect(apiKey.getBalance(live(k))).resolves.toEqual({ amountMinor: 100, currency: 'USD' });
    await expect(apiKey.getOrder(live(k), created.supplierOrderId)).resolves.toEqual(created);
    const received = await control('GET', '/received');
    expect(received.payments.filter((p: any) => p.orderId === created.supplierOrderId)).toHaveLength(0);
  });

  test('a reused order number is orderNumberExists naming the existing order, and creates nothing', async () => {
    const k = await newAccount();
    const { variant } = await freshVariant();
    const number = orderNumber();
    const input = { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US };
    const first = await apiKey.createOrder(live(k), input);
    const err = await failure(apiKey.createOrder(live(k), input));
    expect(err.kind).toBe('orderNumberExists');
    expect(err.subject).toEqual({ supplierOrderId: first.supplierOrderId });
    expect((await control('GET', '/received')).ordersByNumber[number]).toBe(1);
  });

  test('an unavailable variant or too little stock is variantUnavailable naming the variant', async () => {
    const k = await newAccount();
    const { variant } = await freshVariant();
    await control('POST', `/variants/${variant.id}`, { available: false });
    const number = orderNumber();
    const err = await failure(apiKey.createOrder(live(k), { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US }));
    expect(err.kind).toBe('variantUnavailable');
    expect(err.subject).toEqual({ variantId: variant.id });
    expect(err.message).toContain(variant.id);

    const { variant: scarce } = await freshVariant({ stock: 2 });
    const short = await failure(apiKey.createOrder(live(k), { orderNumber: orderNumber(), items: [{ variantId: scarce.id, quantity: 3 }], destination: US }));
    expect(short.kind).toBe('variantUnavailable');
    expect(short.subject).toEqual({ variantId: scarce.id });
    expect((await control('GET', '/received')).ordersByNumber[number]).toBeUndefined();
  });

  test('a country switched off, or not shipped to, is destinationUnsupported', async () => {
    const k = await newAccount();
    const { variant } = await freshVariant({ country: 'JP' });
    const jp = { ...US, country: 'JP', region: undefined };
    await control('POST', '/countries/JP', { served: false });
    try {
      const err = await failure(apiKey.createOrder(live(k), { orderNumber: orderNumber(), items: [{ variantId: variant.id, quantity: 1 }], destination: jp }));
      expect(err.kind).toBe('destinationUnsupported');
    } finally {
      await control('POST', '/countries/JP', { served: true });
    }
    const ok = await apiKey.createOrder(live(k), { orderNumber: orderNumber(), items: [{ variantId: variant.id, quantity: 1 }], destination: jp });
    expect(ok.status).toBe('created');

    const { variant: noGb } = await freshVariant({ notShippedTo: 'GB' });
    const gb = await failure(
      apiKey.createOrder(live(k), { orderNumber: orderNumber(), items: [{ variantId: noGb.id, quantity: 1 }], destination: { ...US, country: 'GB' } }),
    );
    expect(gb.kind).toBe('destinationUnsupported');
  });

  test('an injected refusal is refused with the supplier message; the next create works', async () => {
    const k = await newAccount();
    const { variant } = await freshVariant();
    await control('POST', '/faults', { refuseNext: { count: 1, message: 'Out of packaging tape' } });
    const number = orderNumber();
    const err = await failure(apiKey.createOrder(live(k), { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US }));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('Out of packaging tape');
    expect((await control('GET', '/received')).ordersByNumber[number]).toBeUndefined();
    const ok = await apiKey.createOrder(live(k), { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US });
    expect(ok.orderNumber).toBe(number);
  });

  test('a 5xx on create is unavailable and creates nothing', async () => {
    const k = await newAccount();
    const { variant } = await freshVariant();
    const before = (await control('GET', '/received')).createAttempts;
    await control('POST', '/faults', { failNext: 1 });
    const number = orderNumber();
    const err = await failure(apiKey.createOrder(live(k), { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US }));
    expect(err.kind).toBe('unavailable');
    const received = await control('GET', '/received');
    expect(received.createAttempts).toBe(before + 1);
    expect(received.ordersByNumber[number]).toBeUndefined();
    await expect(apiKey.findOrderByNumber(live(k), number)).resolves.toBeNull();
  });

  test('a create whose answer never comes is a timeout; the order is then found exactly once', async () => {
    const k = await newAccount();
    const { variant } = await freshVariant();
    await control('POST', '/faults', { timeoutAfterCreateNext: 1 });
    const number = orderNumber('T');
    const started = Date.now();
    const err = await failure(
      apiKey.createOrder(ctx('live', { apiKey: k.liveKey }, 300), { orderNumber: number, items: [{ variantId: variant.id, quantity: 1 }], destination: US }),
    );
    const took = Date.now() - started;
    expect(err.kind).toBe('timeout');
    expect(err.isOutage).toBe(true);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(5000);

    const found = await apiKey.findOrderByNumber(live(k), number);
    expect(found).not.toBeNull();
    expect(found!.orderNumber).toBe(number);
    expect(found!.status).toBe('created');
    const received = await control('GET', '/received');
    expect(received.ordersByNumber[number]).toBe(1);
    expect(received.orders.filter((o: any) => o.orderNumber === number)).toHaveLength(1);
  });

  test('latency beyond ctx.timeoutMs is a timeout on any call', async () => {
    const k = await newAccount();
    await control('POST', '/faults', { latencyMs: 1000 });
    const err = await failure(apiKey.getBalance(ctx('live', { apiKey: k.liveKey }, 200)));
    expect(err.kind).toBe('timeout');
    expect(err.message).not.toContain(k.liveKey);
  });
});

describe('answers the sandbox would never give', () => {
  // A stand-in that misbehaves on purpose: echoes the token, answers junk, redirects.
  let fake: http.Server;
  let fakeAdapter: SupplierAdapter;
  const seen: string[] = [];

  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const token = String(req.headers.authorization ?? '');
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/v1/orders') return json(422, { error: { code: 'orderRefused', message: `refused for ${token}` } });
      if (req.url === '/v1/account') return json(200, { accountId: 'a', environment: 'live', balanceMinor: 12.5, currency: 'USD' });
      if (req.url === '/v1/products/SBX-NUL') {
        const variant = { id: 'V\u0000', sku: 's\ud800', title: 't', options: { 'size\u0000': 'L\udc00' }, costMinor: 100, stock: 1, available: true };
        return json(200, {
          id: 'SBX-NUL',
          title: 'Mug\u0000',
          description: '\udfff\ud800',
          url: 'u',
          imageUrl: null,
          shipsTo: ['US'],
          currency: 'USD',
          variants: [variant],
          updatedAt: null,
        });
      }
      if (req.url?.startsWith('/v1/products?')) return res.writeHead(302, { location: '/elsewhere' }).end();
      if (req.url?.startsWith('/v1/orders/')) return res.writeHead(502, { 'content-type': 'text/html' }).end(`<h1>bad gateway ${token}</h1>`);
      return json(404, { error: { code: 'notFound', message: 'nope' } });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    [fakeAdapter] = createSandboxAdapters({ baseUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` });
  });

  afterAll(async () => {
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
  });

  const key = 'sbx_live_secret_value_123456';
  const c = () => ctx('live', { apiKey: key });

  test('a supplier message that echoes the key is scrubbed', async () => {
    const err = await failure(fakeAdapter.createOrder(c(), { orderNumber: '1', items: [{ variantId: 'v', quantity: 1 }], destination: US }));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('refused for Bearer [redacted]');
    expect(err.message).not.toContain(key);
  });

  test('ids that cannot name one record are notFound without a request, and never a URIError', async () => {
    const before = seen.length;
    for (const id of ['.', '..', '', '\udfff\ud800']) expect([id, (await failure(fakeAdapter.getProduct(c(), id))).kind]).toEqual([id, 'notFound']);
    for (const id of ['..', '\ud800']) expect((await failure(fakeAdapter.payOrder(c(), id))).kind).toBe('notFound');
    expect(seen.length).toBe(before);
    // Anything else goes out as one encoded segment.
    await failure(fakeAdapter.getProduct(c(), 'a/../b c'));
    expect(seen[seen.length - 1]).toBe('/v1/products/a%2F..%2Fb%20c');
  });

  test('text Postgres cannot store (NUL, unpaired surrogates) arrives storable', async () => {
    const product = await fakeAdapter.getProduct(c(), 'SBX-NUL');
    expect(product.title).toBe('Mug');
    expect(product.description).toBe('\ufffd\ufffd');
    expect(product.variants[0]).toMatchObject({ id: 'V', sku: 's\ufffd', options: { size: 'L\ufffd' } });
  });

  test('a fractional balance is an unexpected body, not a number we pass on', async () => {
    const err = await failure(fakeAdapter.getBalance(c()));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('account.balanceMinor');
  });

  test('a redirect is not followed; a 502 page is unavailable without echoing it', async () => {
    const before = seen.length;
    const redirected = await failure(fakeAdapter.searchProducts(c(), { pageSize: 5 }));
    expect(redirected.kind).toBe('unavailable');
    expect(seen.slice(before)).toEqual(['/v1/products?page=1&pageSize=5']);
    const gateway = await failure(fakeAdapter.getOrder(c(), 'X'));
    expect(gateway.kind).toBe('unavailable');
    expect(gateway.message).toContain('502');
    expect(gateway.message).not.toContain(key);
  });
});

describe('sign-in', () => {
  const redirectUri = 'http://127.0.0.1:9/connections/callback';

  async function authorize(adapter: SupplierAdapter, accountId: string, state: string): Promise<string> {
    const url = adapter.signInUrl!({ state, redirectUri, mode: 'live' });
    const res = await fetch(`${url}&accountId=${encodeURIComponent(accountId)}&approve=1`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe(state);
    const code = location.searchParams.get('code');
    expect(code).toMatch(/^sbx_code_/);
    return code!;
  }

  test('signInUrl points at the sandbox authorize page with encoded parameters', () => {
    const state = 'a b&c=d/é';
    const url = new URL(signIn.signInUrl!({ state, redirectUri, mode: 'live' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sbx.baseUrl}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: 'store-suppliers', redirect_uri: redirectUri, state });
  });

  test('authorize -> code -> exchange -> verify; the same code again is credentialsRejected', async () => {
    const k = await newAccount(2_500);
    const code = await authorize(signIn, k.accountId, 'st-1');
    const creds = await signIn.exchangeSignInCode!({ code, redirectUri, timeoutMs: 5000 });
    expect(creds).toEqual({ accessToken: expect.stringMatching(/^sbx_at_/), accountId: k.accountId });
    const c = ctx('live', creds);
    await expect(signIn.verifyCredentials(c)).resolves.toEqual({ accountLabel: `${k.accountId} (live)`, accountId: `sandbox:${k.accountId}:live` });
    await expect(signIn.getBalance(c)).resolves.toEqual({ amountMinor: 2_500, currency: 'USD' });
    expect((await signIn.healthCheck(c)).ok).toBe(true);

    const reused = await failure(signIn.exchangeSignInCode!({ code, redirectUri, timeoutMs: 5000 }));
    expect(reused.kind).toBe('credentialsRejected');
    expect(reused.message).not.toContain(code);
  });

  test('a mismatched redirect uri or an unknown code is credentialsRejected; a bad token too', async () => {
    const k = await newAccount();
    const code = await authorize(signIn, k.accountId, 'st-2');
    const wrong = await failure(signIn.exchangeSignInCode!({ code, redirectUri: 'http://127.0.0.1:9/elsewhere', timeoutMs: 5000 }));
    expect(wrong.kind).toBe('credentialsRejected');
    expect((await failure(signIn.exchangeSignInCode!({ code: 'sbx_code_nope', redirectUri, timeoutMs: 5000 }))).kind).toBe('credentialsRejected');
    // A mismatch does not use up the code.
    await expect(signIn.exchangeSignInCode!({ code, redirectUri, timeoutMs: 5000 })).resolves.toMatchObject({ accountId: k.accountId });

    const bad = await failure(signIn.verifyCredentials(ctx('live', { accessToken: 'sbx_at_not_a_token' })));
    expect(bad.kind).toBe('credentialsRejected');
    expect(bad.message).not.toContain('sbx_at_not_a_token');
    // The sign-in adapter reads accessToken, never apiKey.
    expect((await failure(signIn.verifyCredentials(ctx('live', { apiKey: k.liveKey })))).kind).toBe('credentialsRejected');
  });

  test('the configured client id is what the sandbox receives', async () => {
    const [, custom] = createSandboxAdapters({ baseUrl: `${sbx.baseUrl}/`, oauthClientId: 'my-client id' });
    expect(new URL(custom.signInUrl!({ state: 's', redirectUri, mode: 'live' })).searchParams.get('client_id')).toBe('my-client id');
    const k = await newAccount();
    const code = await authorize(custom, k.accountId, 's');
    await expect(custom.exchangeSignInCode!({ code, redirectUri, timeoutMs: 5000 })).resolves.toMatchObject({ accountId: k.accountId });
    expect((await control('GET', '/received')).oauthClientIds).toContain('my-client id');
  });
});

describe('notifications', () => {
  interface Hit {
    path: string;
    headers: Record<string, string | undefined>;
    raw: string;
  }
  let receiver: http.Server;
  let receiverUrl: string;
  const hits: Hit[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(',') : value;
        hits.push({ path: req.url ?? '', headers, raw: Buffer.concat(chunks).toString('utf8') });
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

  test('a registered address receives signed notifications that verify, and every tampering is refused', async () => {
    const k = await newAccount();
    const path = `/hooks/${k.accountId}`;
    const registered = await apiKey.registerNotificationAddress!(live(k), receiverUrl + path);
    expect(registered).toEqual({ signingSecret: expect.stringMatching(/^whsec_/) });
    expect((await raw('GET', '/v1/webhook', { key: k.liveKey })).body).toEqual({ url: receiverUrl + path });
    const c = live(k, registered);

    const { variant } = await freshVariant();
    const created = await apiKey.createOrder(live(k), { orderNumber: orderNumber('N'), items: [{ variantId: variant.id, quantity: 1 }], destination: US });
    await apiKey.payOrder(live(k), created.supplierOrderId);
    const orderHit = await waitFor(() => hits.find((h) => h.path === path && h.raw.includes('order.updated')));
    // The time it was signed, not the time it was read: under load it may arrive seconds later.
    const now = new Date(Number(/t=(\d+)/.exec(orderHit.headers['x-sandbox-signature'])![1]) * 1000);
    expect(apiKey.verifyNotification(c, { rawBody: orderHit.raw, headers: orderHit.headers, now })?.subjects).toEqual([
      { kind: 'order', supplierOrderId: created.supplierOrderId, orderNumber: created.orderNumber },
    ]);
    expect(signIn.verifyNotification(c, { rawBody: orderHit.raw, headers: orderHit.headers, now })?.subjects).toHaveLength(1);

    const tampered = orderHit.raw.replace(created.supplierOrderId, 'SBX-OOTHER');
    expect(tampered).not.toBe(orderHit.raw);
    expect(apiKey.verifyNotification(c, { rawBody: tampered, headers: orderHit.headers, now })).toBeNull();
    expect(
      apiKey.verifyNotification(live(k, { signingSecret: 'whsec_wrong_secret_value' }), { rawBody: orderHit.raw, headers: orderHit.headers, now }),
    ).toBeNull();
    expect(apiKey.verifyNotification(live(k), { rawBody: orderHit.raw, headers: orderHit.headers, now })).toBeNull();
    expect(apiKey.verifyNotification(c, { rawBody: orderHit.raw, headers: orderHit.headers, now: new Date(now.getTime() + 301_000) })).toBeNull();
    expect(apiKey.verifyNotification(c, { rawBody: orderHit.raw, headers: orderHit.headers, now: new Date(now.getTime() - 301_000) })).toBeNull();
    // Still inside the window: proves the stale refusals above are about time alone.
    expect(apiKey.verifyNotification(c, { rawBody: orderHit.raw, headers: orderHit.headers, now: new Date(now.getTime() + 200_000) })?.subjects).toHaveLength(
      1,
    );
    const noHeader = { ...orderHit.headers };
    delete noHeader['x-sandbox-signature'];
    expect(apiKey.verifyNotification(c, { rawBody: orderHit.raw, headers: noHeader, now })).toBeNull();
    expect(apiKey.verifyNotification(c, { rawBody: orderHit.raw, headers: { ...orderHit.headers, 'x-sandbox-signature': 'garbage' }, now })).toBeNull();

    await control('POST', `/variants/${variant.id}`, { costMinor: variant.costMinor + 1 });
    const productHit = await waitFor(() => hits.find((h) => h.path === path && h.raw.includes('product.updated')));
    const productId = variant.id.replace(/-V\d+$/, '');
    expect(apiKey.verifyNotification(c, { rawBody: productHit.raw, headers: productHit.headers, now: new Date() })?.subjects).toEqual([
      { kind: 'product', supplierProductId: productId },
    ]);
  });

  test('correctly signed but malformed or unknown events are null', () => {
    const secret = 'whsec_local_test_secret';
    const c = ctx('live', { apiKey: 'sbx_live_x', signingSecret: secret });
    const now = new Date('2025-01-01T00:00:00Z');
    const t = Math.floor(now.getTime() / 1000);
    const signed = (body: string, ts = t) => ({
      rawBody: body,
      headers: { 'x-sandbox-signature': `t=${ts},v1=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}` },
      now,
    });
    const good = JSON.stringify({ id: 'evt_1', type: 'order.updated', data: { orderId: 'SBX-O1', orderNumber: '7', status: 'paid' } });
    expect(apiKey.verifyNotification(c, signed(good))?.subjects).toEqual([{ kind: 'order', supplierOrderId: 'SBX-O1', orderNumber: '7' }]);
    expect(apiKey.verifyNotification(c, signed(good))?.eventId).toBe(JSON.parse(good).id ?? null);
    expect(apiKey.verifyNotification(c, signed(good, t - 300))?.subjects).toHaveLength(1);
    expect(apiKey.verifyNotification(c, signed(good, t - 301))).toBeNull();
    expect(apiKey.verifyNotification(c, signed('not json'))).toBeNull();
    expect(apiKey.verifyNotification(c, signed(JSON.stringify({ type: 'order.updated' })))).toBeNull();
    expect(apiKey.verifyNotification(c, signed(JSON.stringify({ type: 'order.updated', data: { orderId: 5 } })))).toBeNull();
    expect(apiKey.verifyNotification(c, signed(JSON.stringify({ type: 'account.deleted', data: {} })))).toBeNull();
    expect(apiKey.verifyNotification(c, signed('[1,2]'))).toBeNull();
    // Upper-case hex and a short signature.
    const h = signed(good).headers['x-sandbox-signature'];
    expect(
      apiKey.verifyNotification(c, { rawBody: good, headers: { 'x-sandbox-signature': h.toUpperCase().replace('T=', 't=').replace('V1=', 'v1=') }, now })
        ?.subjects,
    ).toHaveLength(1);
    expect(apiKey.verifyNotification(c, { rawBody: good, headers: { 'x-sandbox-signature': h.slice(0, -2) }, now })).toBeNull();
  });
});
