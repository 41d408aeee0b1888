import crypto from 'node:crypto';
import { createKey, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, submit, US_ADDRESS } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Awaited<ReturnType<typeof openShop>>;
const ids: string[] = [];
let pausedIds: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'solist', sandbox });
  shop = await openShop(svc, sandbox, { page: 1 });
  for (let i = 0; i < 7; i++) {
    const order = await placeOrder(svc, shop, i % 3 === 0 ? { destination: { ...US_ADDRESS, country: 'BR' } } : {});
    const so = (await submit(svc, shop, order.id)).body.result;
    ids.unshift(so._id);
    if (so.status === 'needsReview') pausedIds.unshift(so._id);
  }
  pausedIds = pausedIds.slice();
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const list = (q: string, key = shop.owner.key) => svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders${q}`, { key });

test('newest first, exact envelope, default page size 25', async () => {
  const res = await list('');
  expect(res.status).toBe(200);
  expect(Object.keys(res.body)).toEqual(['result']);
  expect(Object.keys(res.body.result)).toEqual(['items', 'pagination']);
  expect(res.body.result.pagination).toEqual({ nextCursor: null, previousCursor: null, hasMore: false, totalCount: 7, pageSize: 25 });
  expect(res.body.result.items.map((s: any) => s._id)).toEqual(ids);
});

test('cursor paging reads every row once; the cursor is bound to its filters', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: any = await list(`?pageSize=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages++;
    seen.push(...res.body.result.items.map((s: any) => s._id));
    expect(res.body.result.pagination.totalCount).toBe(7);
    cursor = res.body.result.pagination.hasMore ? res.body.result.pagination.nextCursor : null;
  } while (cursor);
  expect(pages).toBe(3);
  expect(seen).toEqual(ids);
  const first = await list('?pageSize=3');
  const wrong = await list(`?pageSize=3&needsReview=true&cursor=${encodeURIComponent(first.body.result.pagination.nextCursor)}`);
  expect(wrong.status).toBe(400);
  expect(wrong.body.error.code).toBe('invalidCursor');
});

test('filters: needsReview, status, integrationId, orderId, contractModel; totalCount counts the filtered rows exactly', async () => {
  const review = await list('?needsReview=true');
  expect(review.body.result.items.map((s: any) => s._id)).toEqual(pausedIds);
  expect(review.body.result.pagination.totalCount).toBe(pausedIds.length);
  expect(review.body.result.items.every((s: any) => s.status === 'needsReview' && s.reviewReason === 'destinationUnsupported')).toBe(true);
  const notReview = await list('?needsReview=false');
  expect(notReview.body.result.pagination.totalCount).toBe(7 - pausedIds.length);
  const submitted = await list('?status=submitted');
  expect(submitted.body.result.pagination.totalCount).toBe(7 - pausedIds.length);
  expect((await list(`?integrationId=${shop.connId}`)).body.result.pagination.totalCount).toBe(7);
  expect((await list(`?integrationId=${crypto.randomUUID()}`)).body.result.pagination.totalCount).toBe(0);
  const one = (await list('')).body.result.items[2];
  const byOrder = await list(`?orderId=${one.orderId}`);
  expect(byOrder.body.result.items.map((s: any) => s._id)).toEqual([one._id]);
  expect(byOrder.body.result.pagination.totalCount).toBe(1);
  expect((await list('?contractModel=promiseToSell')).body.result.pagination.totalCount).toBe(0);
  expect((await list('?contractModel=standard')).body.result.pagination.totalCount).toBe(7);
  // The kept counts agree with counting the rows.
  const direct = await svc.db.query(`SELECT status, count(*)::int AS n FROM supplier_orders WHERE store_id = $1 GROUP BY status ORDER BY status`, [
    shop.storeId,
  ]);
  const kept = await svc.db.query(`SELECT status, sum(n)::int AS n FROM supplier_order_counts WHERE store_id = $1 AND n > 0 GROUP BY status ORDER BY status`, [
    shop.storeId,
  ]);
  expect(kept.rows).toEqual(direct.rows);
});

test('page size: at most 100; bad filters are 400 validationFailed', async () => {
  expect((await list('?pageSize=100')).status).toBe(200);
  for (const q of ['?pageSize=101', '?pageSize=0', '?status=lost', '?needsReview=maybe', '?integrationId=nope', '?page=2']) {
    const res = await list(q);
    expect([q, res.status, res.body.error.code]).toEqual([q, 400, 'validationFailed']);
  }
});

test('a listed supplier order is what reading it alone answers: every field, its history, times to the millisecond', async () => {
  // The list prints its times in SQL, the single read through Date: both must cut the microseconds the same way.
  const items = (await list('')).body.result.items;
  expect(items).toHaveLength(7);
  for (const item of items) {
    expect(item.events.length).toBeGreaterThan(0);
    for (const at of [item.createdAt, item.updatedAt, ...item.events.map((e: { at: string }) => e.at)])
      expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(item).toEqual((await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${item._id}`, { key: shop.owner.key })).body.result);
  }
});

test('one supplier order with its history; record scope applies', async () => {
  const res = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${ids[0]}`, { key: shop.owner.key });
  expect(res.body.result._id).toBe(ids[0]);
  expect(res.body.result.events[0]).toMatchObject({ type: 'created', from: null, to: 'queued', actor: { kind: 'key', id: shop.owner.keyId } });
  const own = await createKey(svc, shop.owner.session, 'own', 'own');
  expect((await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${ids[0]}`, { key: own.key })).status).toBe(404);
  const ownList = await list('', own.key);
  expect(ownList.body.result.items).toEqual([]);
  expect(ownList.body.result.pagination.totalCount).toBe(0);
});

leakScanTest();
