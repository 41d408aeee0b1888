/**
 * The Printful adapter's pitfalls against the local Printful-format server: confirms refused while costs are being
 * calculated, several packages, a create whose answer was lost, never a second confirm, every status, cancel refusals,
 * the call limit, account-level tokens and Printful's error shapes. What Printful holds is read from its control API.
 */
import type { SupplierCallContext } from '../../server/suppliers/adapter';
import { failure } from './contract';
import { printfulWorld, PrintfulWorld, US } from './printful-support';

let w: PrintfulWorld;
let ctx: SupplierCallContext;
let seq = 0;
const number = () => `ss-pf-${Date.now().toString(36)}-${++seq}`;

beforeAll(async () => {
  w = await printfulWorld();
  ctx = (await w.connect()).ctx;
});
afterAll(async () => w?.fake.close());
afterEach(async () => w.control('DELETE', '/faults'));

async function draft(items = 1) {
  const variants = await Promise.all(Array.from({ length: items }, () => w.freshVariant()));
  const orderNumber = number();
  const created = await w.adapter.createOrder(ctx, { orderNumber, items: variants.map((v) => ({ variantId: v.variantId, quantity: 1 })), destination: US });
  return { orderNumber, created };
}

test('a confirm refused while Printful calculates the costs is a passing error, and the order is confirmed once they are known', async () => {
  await w.control('POST', '/faults', { costsCalculatingNext: 1, costsCalculatingMs: 600_000 });
  const { orderNumber, created } = await draft();
  expect(created).toMatchObject({ status: 'created', paid: false, costs: null });
  const err = await failure(w.adapter.payOrder(ctx, created.supplierOrderId));
  expect(err).toMatchObject({ kind: 'unavailable', throttled: true });
  expect(err.message).toMatch(/calculating/);
  expect(err.isSupplierFault).toBe(false);
  expect((await w.ordersAt(orderNumber))[0]).toMatchObject({ status: 'draft', confirms: 0, confirmCalls: 1 });
  await w.control('POST', `/orders/${created.supplierOrderId}/costs-ready`);
  const paid = await w.adapter.payOrder(ctx, created.supplierOrderId);
  expect(paid).toMatchObject({ status: 'paid', paid: true, supplierStatus: 'pending', costs: { currency: 'USD', totalMinor: expect.any(Number) } });
  expect((await w.ordersAt(orderNumber))[0]).toMatchObject({ status: 'pending', confirms: 1, confirmCalls: 2 });
});

test('a confirm whose answer was lost is never sent again: the next attempt reads the order and answers alreadyPaid', async () => {
  const { orderNumber, created } = await draft();
  await w.control('POST', '/faults', { timeoutAfterConfirmNext: 1 });
  expect((await failure(w.adapter.payOrder({ ...ctx, timeoutMs: 1000 }, created.supplierOrderId))).kind).toBe('timeout');
  expect((await failure(w.adapter.payOrder(ctx, created.supplierOrderId))).kind).toBe('alreadyPaid');
  expect((await w.adapter.getOrder(ctx, created.supplierOrderId)).paid).toBe(true);
  expect((await w.ordersAt(orderNumber)).map((o) => [o.confirms, o.confirmCalls])).toEqual([[1, 1]]);
});

test('a create repeated after a lost answer finds the draft by its external id and makes no second one', async () => {
  const { variantId } = await w.freshVariant();
  const orderNumber = number();
  const input = { orderNumber, items: [{ variantId, quantity: 2 }], destination: US };
  await w.control('POST', '/faults', { timeoutAfterCreateNext: 1 });
  expect((await failure(w.adapter.createOrder({ ...ctx, timeoutMs: 1000 }, input))).kind).toBe('timeout');
  const again = await w.adapter.createOrder(ctx, input);
  // The look-up missed it (a 404 injected), so the create reached Printful: OR-13, read back, still one order.
  await w.control('POST', '/faults', { failNext: [{ method: 'GET', path: `/orders/@${orderNumber}`, status: 404, times: 1 }] });
  const third = await w.adapter.createOrder(ctx, input);
  const held = await w.ordersAt(orderNumber);
  expect(held).toHaveLength(1);
  expect([again.supplierOrderId, third.supplierOrderId]).toEqual([String(held[0].id), String(held[0].id)]);
  expect(held[0]).toMatchObject({ status: 'draft', confirms: 0, items: [{ quantity: 2 }] });
});

test('several packages of one order keep their own tracking, joined; partial is still being made', async () => {
  const { created } = await draft(2);
  await w.adapter.payOrder(ctx, created.supplierOrderId);
  const order = (await w.control('GET', '/orders')).find((o: { id: number }) => String(o.id) === created.supplierOrderId);
  await w.control('POST', `/orders/${created.supplierOrderId}/ship`, {
    carrier: 'USPS',
    trackingNumber: '9400111899223344556677',
    itemIds: [order.items[0].id],
  });
  const partial = await w.adapter.getOrder(ctx, created.supplierOrderId);
  expect(partial).toMatchObject({
    supplierStatus: 'partial',
    status: 'processing',
    paid: true,
    shipping: { carrier: 'USPS', trackingNumber: '9400111899223344556677' },
  });
  await w.control('POST', `/orders/${created.supplierOrderId}/ship`, { carrier: 'DHL', trackingNumber: 'JD014600003828195678' });
  const all = await w.adapter.getOrder(ctx, created.supplierOrderId);
  expect(all).toMatchObject({
    supplierStatus: 'fulfilled',
    status: 'shipped',
    shipping: { carrier: 'USPS, DHL', trackingNumber: '9400111899223344556677, JD014600003828195678', shippedAt: expect.any(String) },
  });
});

test('every Printful status maps to a supplier order status, and cancel follows Printful: refunded while pending, refused later', async () => {
  const expected: Record<string, [string, boolean]> = {
    draft: ['created', false],
    failed: ['created', false],
    pending: ['paid', true],
    inprocess: ['processing', true],
    onhold: ['processing', true],
    partial: ['processing', true],
    fulfilled: ['shipped', true],
    canceled: ['cancelled', false],
    archived: ['processing', true],
  };
  const { created } = await draft();
  const id = created.supplierOrderId;
  for (const [status, [ours, paid]] of Object.entries(expected)) {
    await w.control('POST', `/orders/${id}/status`, { status });
    expect(await w.adapter.getOrder(ctx, id)).toMatchObject({ supplierStatus: status, status: ours, paid });
  }
  await w.control('POST', `/orders/${id}/status`, { status: 'inprocess' });
  const refused = await failure(w.adapter.cancelOrder(ctx, id));
  expect(refused.kind).toBe('refused');
  expect(refused.message).toMatch(/cancel/);
  await w.control('POST', `/orders/${id}/status`, { status: 'fulfilled' });
  expect((await failure(w.adapter.cancelOrder(ctx, id))).kind).toBe('alreadyShipped');
  expect((await failure(w.adapter.payOrder(ctx, id))).kind).toBe('alreadyPaid');
  expect((await w.control('GET', '/orders')).find((o: { id: number }) => String(o.id) === id).confirmCalls).toBe(0);
  await w.control('POST', `/orders/${id}/status`, { status: 'pending' });
  expect(await w.adapter.cancelOrder(ctx, id)).toMatchObject({ status: 'cancelled', supplierStatus: 'canceled', paid: false });
  expect((await w.control('GET', '/orders')).find((o: { id: number }) => String(o.id) === id)).toMatchObject({ status: 'canceled', cancels: 1 });
});

test('a cancel Printful refuses because the order moved on meanwhile is alreadyShipped once its state says shipped', async () => {
  const { created } = await draft();
  await w.control('POST', '/faults', { failNext: [{ method: 'DELETE', path: '/orders/', status: 400, message: 'Order cannot be canceled', times: 1 }] });
  expect((await failure(w.adapter.cancelOrder(ctx, created.supplierOrderId))).kind).toBe('refused');
  await w.control('POST', `/orders/${created.supplierOrderId}/ship`, {});
  expect((await failure(w.adapter.cancelOrder(ctx, created.supplierOrderId))).kind).toBe('alreadyShipped');
});

test('shipping: the rule picks from /shipping/rates; a destination Printful does not serve is destinationUnsupported', async () => {
  const fast = { ...ctx, ordering: { shippingMethod: { rule: 'fastest' as const } } };
  const { variantId } = await w.freshVariant();
  const orderNumber = number();
  await w.adapter.createOrder(fast, { orderNumber, items: [{ variantId, quantity: 1 }], destination: US });
  expect((await w.ordersAt(orderNumber))[0]).toMatchObject({ shipping: 'EXPRESS', costs: { shipping: '12.49' } });
  await w.control('POST', '/countries/DE', { served: false });
  const err = await failure(
    w.adapter.createOrder(ctx, { orderNumber: number(), items: [{ variantId, quantity: 1 }], destination: { ...US, country: 'DE', region: undefined } }),
  );
  expect(err.kind).toBe('destinationUnsupported');
  expect(err.message).toMatch(/SH-2/);
});

test('account-level tokens name the store in X-PF-Store-Id; another store is refused, and errors carry no token', async () => {
  const { ctx: acct, storeIds } = await w.connect({ accountLevel: true, stores: 2 });
  expect((await w.adapter.verifyCredentials(acct)).accountId).toBe(`printful:store:${storeIds[0]}`);
  expect((await w.adapter.verifyCredentials({ ...acct, credentials: { ...acct.credentials, storeId: String(storeIds[1]) } })).accountId).toBe(
    `printful:store:${storeIds[1]}`,
  );
  expect((await failure(w.adapter.verifyCredentials({ ...acct, credentials: { ...acct.credentials, storeId: '123' } }))).kind).toBe('credentialsRejected');
  const err = await failure(w.adapter.verifyCredentials({ ...acct, credentials: { apiKey: acct.credentials.apiKey } }));
  expect(err.kind).toBe('refused');
  expect(err.message).not.toContain(acct.credentials.apiKey);
});

test("Printful's 5xx problem details are unavailable (a supplier fault); its 429 is throttled, with its rate headers", async () => {
  await w.control('POST', '/faults', { failNext: [{ path: '/store', status: 503, times: 1 }] });
  const down = await failure(w.adapter.verifyCredentials(ctx));
  expect(down).toMatchObject({ kind: 'unavailable', isSupplierFault: true });

  const tight = await printfulWorld({ requestsPerMinute: 3 });
  try {
    const { ctx: c } = await tight.connect();
    for (let i = 0; i < 3; i++) await tight.adapter.verifyCredentials(c);
    const limited = await failure(tight.adapter.verifyCredentials(c));
    expect(limited).toMatchObject({ kind: 'unavailable', throttled: true, isSupplierFault: false });
    const res = await fetch(`${tight.fake.baseUrl}/store`, { headers: { authorization: `Bearer ${c.credentials.apiKey}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ code: 429, error: { reason: 'TooManyRequests' } });
  } finally {
    await tight.fake.close();
  }
});

test('the declared limit: one call per 510 ms per token, shared by every connection on it', () => {
  expect(w.adapter.limits.callSpacingMs({})).toBe(510);
  expect(60_000 / w.adapter.limits.callSpacingMs({})).toBeLessThanOrEqual(120);
  const key = w.adapter.limits.rateKey!({ apiKey: 'a-token-of-some-length', storeId: '1' });
  expect(key).toBe(w.adapter.limits.rateKey!({ apiKey: 'a-token-of-some-length', storeId: '2' }));
  expect(key).not.toContain('a-token-of-some-length');
});

test("on the fake's clock a confirmed order moves pending -> inprocess -> fulfilled, with its package's tracking", async () => {
  const timed = await printfulWorld({ advanceMs: 1000 });
  try {
    const { ctx: c } = await timed.connect();
    const { variantId } = await timed.freshVariant();
    const created = await timed.adapter.createOrder(c, { orderNumber: number(), items: [{ variantId, quantity: 1 }], destination: US });
    expect((await timed.adapter.payOrder(c, created.supplierOrderId)).supplierStatus).toBe('pending');
    const seenStatuses: string[] = [];
    let last = await timed.adapter.getOrder(c, created.supplierOrderId);
    for (let i = 0; i < 100 && last.supplierStatus !== 'fulfilled'; i++) {
      if (seenStatuses.at(-1) !== last.supplierStatus) seenStatuses.push(last.supplierStatus);
      await new Promise((r) => setTimeout(r, 100));
      last = await timed.adapter.getOrder(c, created.supplierOrderId);
    }
    expect(seenStatuses).toEqual(['pending', 'inprocess']);
    expect(last).toMatchObject({
      supplierStatus: 'fulfilled',
      status: 'shipped',
      shipping: { carrier: 'USPS', trackingNumber: expect.stringMatching(/^9400/) },
    });
  } finally {
    await timed.fake.close();
  }
});
