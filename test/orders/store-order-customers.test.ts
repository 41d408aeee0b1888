/**
 * What a merchant reads of an order: its items with their product's title as sold, and the orders of a customer found
 * by name or e-mail. The search reads customer data, so only a caller with customers.view may use it: otherwise which
 * orders match would tell who bought what.
 */
import { leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, US_ADDRESS } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
/** Three customers' orders, oldest first. */
let orders: Array<{ id: string; number: string }>;

const list = (query: string, key = shop.owner.key) => svc.call('GET', `/api/store-orders/${shop.storeId}${query}`, { key });
const ids = (res: { body: any }) => res.body.result.items.map((o: { id: string }) => o.id);

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'order_customers', sandbox });
  shop = await openShop(svc, sandbox, { page: 23 });
  orders = [];
  for (const who of [
    { name: 'Ada Lovelace', email: 'ada@example.test' },
    { name: 'Grace Hopper', email: 'grace.hopper@navy.example' },
    { name: 'Charles Babbage', email: 'c.babbage+orders@example.test' },
  ]) {
    orders.push(await placeOrder(svc, shop, { destination: { ...US_ADDRESS, ...who } }));
  }
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

test("an order's items carry their product's title as sold, beside the variant's", async () => {
  const order = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${orders[0].id}`, { key: shop.owner.key })).body.result;
  const product = (await svc.call('GET', `/api/store-products/${shop.storeId}/${shop.products[0].productId}`, { key: shop.owner.key })).body.result;
  const variant = product.variants.find((v: { id: string }) => v.id === shop.products[0].variantId);
  expect(order.items).toEqual([
    {
      id: expect.any(String),
      productId: product.id,
      variantId: variant.id,
      sku: variant.sku,
      title: variant.title,
      productTitle: product.title,
      quantity: 1,
      unitPriceMinor: variant.priceMinor,
      groupKey: `supplier:${shop.connId}`,
    },
  ]);
  // Renamed later: the order keeps what was sold; a new order takes the new title.
  expect((await svc.call('PUT', `/api/store-products/${shop.storeId}/${product.id}`, { key: shop.owner.key, body: { title: 'Renamed lamp' } })).status).toBe(
    200,
  );
  expect((await svc.call('GET', `/api/store-orders/${shop.storeId}/${orders[0].id}`, { key: shop.owner.key })).body.result.items[0].productTitle).toBe(
    product.title,
  );
  expect((await placeOrder(svc, shop, { destination: { ...US_ADDRESS, name: 'Alan Turing', email: 'alan@turing.example' } })).items[0].productTitle).toBe(
    'Renamed lamp',
  );
});

test('customer finds the orders whose delivery name or e-mail contains it, letter case aside', async () => {
  const [ada, grace, charles] = orders;
  expect(ids(await list('?customer=hopper'))).toEqual([grace.id]);
  expect(ids(await list('?customer=LOVELACE'))).toEqual([ada.id]);
  // The e-mail too, and a part of it.
  expect(ids(await list(`?customer=${encodeURIComponent('babbage+orders@')}`))).toEqual([charles.id]);
  expect(ids(await list('?customer=example.test'))).toEqual([charles.id, ada.id]);
  const page = (await list('?customer=example.test&pageSize=1')).body.result;
  expect(page.pagination).toMatchObject({ totalCount: 2, hasMore: true });
  // The cursor belongs to the search: with another, it is refused rather than paging the wrong list.
  expect((await list(`?customer=example.test&pageSize=1&cursor=${page.pagination.nextCursor}`)).body.result.items.map((o: { id: string }) => o.id)).toEqual([
    ada.id,
  ]);
  const other = await list(`?customer=hopper&pageSize=1&cursor=${page.pagination.nextCursor}`);
  expect([other.status, other.body.error.code]).toEqual([400, 'invalidCursor']);
  // With the other filters: all of them hold.
  expect(ids(await list('?customer=example.test&status=cancelled'))).toEqual([]);
  expect(ids(await list('?customer=nobody'))).toEqual([]);
  expect((await list('?customer=nobody')).body.result.pagination.totalCount).toBe(0);
});

test("the search is literal: LIKE's wildcards and its escape match only themselves", async () => {
  for (const text of ['%', '_', '\\', '%a%', 'a_a']) {
    const res = await list(`?customer=${encodeURIComponent(text)}`);
    expect([text, res.status, ids(res)]).toEqual([text, 200, []]);
  }
  const empty = await list('?customer=');
  expect([empty.status, empty.body.error.code]).toEqual([400, 'validationFailed']);
});

test('without customers.view a caller cannot search by customer (403 naming it), and still lists orders without addresses', async () => {
  const clerk = await newDeveloper(svc);
  await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: clerk.email, permissions: ['orders.view'] } });
  for (const query of ['?customer=hopper', '?customer=zzz-no-match', '?customer=a&needsAttention=true']) {
    const refused = await list(query, clerk.key);
    expect([query, refused.status, refused.body.error.code, refused.body.error.details]).toEqual([
      query,
      403,
      'permissionDenied',
      [expect.objectContaining({ permission: 'customers.view' })],
    ]);
  }
  const all = (await list('', clerk.key)).body.result;
  expect(all.items.length).toBeGreaterThanOrEqual(3);
  expect(all.items.every((o: Record<string, unknown>) => o.destinationRedacted === true && !('destination' in o))).toBe(true);
  expect(JSON.stringify(all)).not.toContain('Hopper');

  const packer = await newDeveloper(svc);
  await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, {
    key: shop.owner.key,
    body: { email: packer.email, permissions: ['orders.view', 'customers.view'] },
  });
  const found = (await list('?customer=hopper', packer.key)).body.result;
  expect(found.items.map((o: { id: string; destination: { name: string } }) => [o.id, o.destination.name])).toEqual([[orders[1].id, 'Grace Hopper']]);
});

leakScanTest();
