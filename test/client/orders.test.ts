/** The client's supplier orders and store orders: paused orders throw, 200s return, pages are walked to the end. */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received, Shop, US_ADDRESS } from '../support/orders';
import { ApiError, clientFor, expectNoKey, InvalidStateError, rejectionOf, StoreSuppliersError, SupplierOrderPausedError } from './support';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'client_orders', sandbox });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const BRAZIL = { ...US_ADDRESS, country: 'BR' };

test('submit: a part paused for review throws SupplierOrderPausedError carrying reason, message, retryable and the order', async () => {
  const shop = await openShop(svc, sandbox, { page: 2 });
  const { store, sent } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop, { destination: BRAZIL });
  const err = await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop), { payNow: true }));
  expect(err).toBeInstanceOf(SupplierOrderPausedError);
  expect(err).toBeInstanceOf(StoreSuppliersError);
  expect(err).not.toBeInstanceOf(ApiError);
  expect({ reviewReason: err.reviewReason, retryable: err.retryable }).toEqual({ reviewReason: 'destinationUnsupported', retryable: false });
  expect(err.reviewMessage).toEqual(expect.any(String));
  expect(err.message).toContain('destinationUnsupported');
  expect(err.supplierOrder).toMatchObject({ orderId: order.id, fulfilmentGroupKey: partKeyOf(shop), status: 'needsReview' });
  // The service answered 200: the order is paused, not refused, and nothing reached the supplier.
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 200, body: { payNow: true } });
  expect((await received(sandbox)).count(err.supplierOrder.supplierOrderNumber)).toBe(0);
  const stored = await svc.db.query('SELECT status, review_reason FROM supplier_orders WHERE id = $1', [err.supplierOrder._id]);
  expect(stored.rows[0]).toEqual({ status: 'needsReview', review_reason: 'destinationUnsupported' });
  expectNoKey(err, shop.owner.key);
});

test('retry: paused again throws; with acceptCost the order goes on and the choice is recorded', async () => {
  const shop = await openShop(svc, sandbox, { page: 13, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } });
  const { store, sent } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop);
  const paused = await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop)));
  expect(paused.reviewReason).toBe('costAboveLimit');
  const id = paused.supplierOrder._id;

  const again = await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.retry(shop.storeId, id));
  expect(again).toBeInstanceOf(SupplierOrderPausedError);
  expect(again.supplierOrder).toMatchObject({ _id: id, status: 'needsReview', reviewReason: 'costAboveLimit' });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 200, body: {} });

  const accepted = await store.suppliers.orders.retry(shop.storeId, id, { acceptCost: true });
  expect(sent.at(-1)!.body).toEqual({ acceptCost: true });
  expect(accepted).toMatchObject({ _id: id, reviewReason: null });
  expect(['submitted', 'confirmed']).toContain(accepted.status);
  const read = await store.suppliers.orders.get(shop.storeId, id);
  expect(read.events.some((e) => e.type === 'retry' && e.details.acceptCost === true)).toBe(true);
  expect((await received(sandbox)).count(read.supplierOrderNumber)).toBe(1);
});

test('pay: with no balance it throws insufficientBalance and nothing is paid; after a top-up retry and pay return the paid order', async () => {
  const shop = await openShop(svc, sandbox, { page: 3, balanceMinor: 0 });
  const { store } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop);
  const created = await store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop));
  expect(created).toMatchObject({ status: 'submitted', payment: { status: 'unpaid' } });

  const err = await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.pay(shop.storeId, created._id));
  expect(err).toBeInstanceOf(SupplierOrderPausedError);
  expect({ reason: err.reviewReason, retryable: err.retryable, id: err.supplierOrder._id }).toEqual({
    reason: 'insufficientBalance',
    retryable: false,
    id: created._id,
  });
  expect((await received(sandbox)).payments.filter((p: any) => p.orderNumber === created.supplierOrderNumber)).toEqual([]);

  await sandbox.control('POST', `/accounts/${shop.account.accountId}/balance`, { balanceMinor: 1_000_000 });
  const retried = await store.suppliers.orders.retry(shop.storeId, created._id);
  expect(retried).toMatchObject({ _id: created._id, reviewReason: null });
  const paid = retried.payment.status === 'paid' ? retried : await store.suppliers.orders.pay(shop.storeId, created._id);
  expect(paid).toMatchObject({ _id: created._id, status: 'confirmed', payment: { status: 'paid' } });
  expect((await received(sandbox)).payments.filter((p: any) => p.orderNumber === created.supplierOrderNumber)).toHaveLength(1);
});

describe('lists', () => {
  let shop: Shop;
  const newestFirst: string[] = [];
  const pausedNewestFirst: string[] = [];

  beforeAll(async () => {
    shop = await openShop(svc, sandbox, { page: 5 });
    const { store } = clientFor(svc, shop.owner.key);
    // Seven supplier orders: every other one paused (destination not served), the rest sent.
    for (let i = 0; i < 7; i++) {
      const order = await placeOrder(svc, shop, i % 2 === 0 ? { destination: BRAZIL } : {});
      const so = await store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop)).catch((e) => (e as SupplierOrderPausedError).supplierOrder);
      newestFirst.unshift(so._id);
      if (so.status === 'needsReview') pausedNewestFirst.unshift(so._id);
    }
    expect(pausedNewestFirst).toHaveLength(4);
  });

  test('list answers one page with the pagination block', async () => {
    const { store, sent } = clientFor(svc, shop.owner.key);
    const page = await store.suppliers.orders.list(shop.storeId, { needsReview: true, pageSize: 3 });
    expect(page.items.map((s) => s._id)).toEqual(pausedNewestFirst.slice(0, 3));
    expect(page.pagination).toMatchObject({ hasMore: true, totalCount: 4, pageSize: 3, nextCursor: expect.any(String) });
    expect(Object.fromEntries(sent[0].url.searchParams)).toEqual({ needsReview: 'true', pageSize: '3' });
  });

  test('iterate walks more than two pages with the same filters until hasMore is false', async () => {
    const { store, sent } = clientFor(svc, shop.owner.key);
    const all: string[] = [];
    for await (const so of store.suppliers.orders.iterate(shop.storeId, { pageSize: 2 })) all.push(so._id);
    expect(all).toEqual(newestFirst);
    expect(sent).toHaveLength(4);
    expect(sent.map((s) => s.url.searchParams.get('pageSize'))).toEqual(['2', '2', '2', '2']);
    expect(sent[0].url.searchParams.has('cursor')).toBe(false);
    expect(sent.slice(1).every((s) => s.url.searchParams.get('cursor'))).toBe(true);

    const paused: string[] = [];
    const filtered = clientFor(svc, shop.owner.key);
    for await (const so of filtered.store.suppliers.orders.iterate(shop.storeId, { status: 'needsReview', pageSize: 1 })) paused.push(so._id);
    expect(paused).toEqual(pausedNewestFirst);
    expect(filtered.sent).toHaveLength(4);
    expect(filtered.sent.every((s) => s.url.searchParams.get('status') === 'needsReview')).toBe(true);
  });

  test('store orders: list with needsAttention keeps the paused ones; get adds parts and supplier orders', async () => {
    const { store } = clientFor(svc, shop.owner.key);
    const attention = await store.orders.list(shop.storeId, { needsAttention: true, pageSize: 100 });
    const pausedOrders = await Promise.all(pausedNewestFirst.map((id) => store.suppliers.orders.get(shop.storeId, id)));
    expect(attention.items.map((o) => o.id).sort()).toEqual(pausedOrders.map((s) => s.orderId).sort());
    expect(attention.items.every((o) => o.needsAttention)).toBe(true);

    const one = await store.orders.get(shop.storeId, pausedOrders[0].orderId);
    expect(one.fulfilmentGroups.map((g) => g.groupKey)).toContain(partKeyOf(shop));
    expect(one.supplierOrders?.map((s) => s._id)).toEqual([pausedOrders[0]._id]);

    const walked: string[] = [];
    for await (const o of store.orders.iterate(shop.storeId, { pageSize: 3 })) walked.push(o.id);
    expect(walked).toHaveLength(7);
  });
});

test('cancel returns the cancelled order; fulfilManually takes a part over; a second cancel is an InvalidStateError', async () => {
  const shop = await openShop(svc, sandbox, { page: 7 });
  const { store } = clientFor(svc, shop.owner.key);
  const [a, b] = [await placeOrder(svc, shop), await placeOrder(svc, shop)];
  const soA = await store.suppliers.orders.submit(shop.storeId, a.id, partKeyOf(shop));
  const cancelled = await store.suppliers.orders.cancel(shop.storeId, soA._id);
  expect(cancelled).toMatchObject({ _id: soA._id, status: 'cancelled' });
  expect((await received(sandbox)).all.orders.find((o: any) => o.orderNumber === soA.supplierOrderNumber).status).toBe('cancelled');
  const twice = await rejectionOf<ApiError>(store.suppliers.orders.cancel(shop.storeId, soA._id));
  expect(twice).toBeInstanceOf(ApiError);
  expect(twice.status).toBe(409);
  if (twice.code === 'invalidState') expect(twice).toBeInstanceOf(InvalidStateError);

  await store.suppliers.orders.submit(shop.storeId, b.id, partKeyOf(shop));
  const taken = await store.suppliers.orders.fulfilManually(shop.storeId, b.id, partKeyOf(shop));
  expect(taken.supplierOrder).toMatchObject({ status: 'cancelled' });
  expect(taken.part).toMatchObject({ fulfilledByStore: true });
});

test('submit twice gives one supplier order (the reason the client may retry it)', async () => {
  const shop = await openShop(svc, sandbox, { page: 8 });
  const { store } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop);
  const [one, two] = await Promise.all([
    store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop)),
    store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop)),
  ]);
  expect(two._id).toBe(one._id);
  await eventually(async () => ((await received(sandbox)).count(one.supplierOrderNumber) === 1 ? true : undefined), 10000, 'the supplier to hold the order');
});

test("reports.profit answers the store's profit from the service's kept sums: the part's own figures, by connection, with a ValidationFailedError for a bad range", async () => {
  const shop = await openShop(svc, sandbox, { page: 9 });
  const { store, sent } = clientFor(svc, shop.owner.key);
  const so = await store.suppliers.orders.submit(shop.storeId, (await placeOrder(svc, shop, { quantity: 2 })).id, partKeyOf(shop));
  const profit = (await store.suppliers.orders.get(shop.storeId, so._id)).profit!;
  const today = new Date().toISOString().slice(0, 10);
  const report = await store.suppliers.reports.profit(shop.storeId, { from: today, to: today, groupBy: 'connection' });
  expect(sent.at(-1)!.url.pathname).toBe(`/api/store-suppliers/${shop.storeId}/reports/profit`);
  const figures = {
    orders: 1,
    parts: 1,
    revenueMinor: profit.revenueMinor,
    landedCostMinor: profit.landedCostMinor,
    paymentFeeMinor: 0,
    supplierCreditMinor: 0,
    resultMinor: profit.resultMinor,
    incompleteParts: 0,
  };
  expect(report).toMatchObject({ currency: 'USD', from: today, to: today, groupBy: 'connection', totals: figures });
  expect(report.items).toEqual([{ key: shop.connId, label: 'sandbox (live)', ...figures }]);
  const bad = await rejectionOf<ApiError>(store.suppliers.reports.profit(shop.storeId, { from: today, to: '2000-01-01' }));
  expect({ status: bad.status, code: bad.code }).toEqual({ status: 400, code: 'validationFailed' });
});

leakScanTest();
