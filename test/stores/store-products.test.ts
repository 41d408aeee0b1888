import { createKey, createStore, Developer, leakScanTest, newDeveloper, Service, startService } from '../support/harness';

let svc: Service;
let dev: Developer;
let storeId: string;

beforeAll(async () => {
  svc = await startService({ label: 'products' });
  dev = await newDeveloper(svc, { plan: 'pro', credits: 500 });
  storeId = await createStore(svc, dev.key);
});
afterAll(async () => {
  await svc.stop();
});

const body = (n: number) => ({
  title: `Product ${n}`,
  description: 'A thing',
  variants: [
    { sku: `P${n}-S`, title: 'Small', priceMinor: 1000 + n, currency: 'USD', stock: 5 },
    { sku: `P${n}-L`, title: 'Large', priceMinor: 2000 + n, currency: 'USD', stock: 0 },
  ],
});

test('create, get, update (keeping, changing and adding variants), delete', async () => {
  const created = await svc.call('POST', `/api/store-products/${storeId}`, { key: dev.key, body: body(1) });
  expect(created.status).toBe(201);
  const p = created.body.result;
  expect(p).toMatchObject({ title: 'Product 1', status: 'active', createdByKeyId: dev.keyId });
  expect(p.variants.map((v: { sku: string; priceMinor: number }) => [v.sku, v.priceMinor])).toEqual([
    ['P1-S', 1001],
    ['P1-L', 2001],
  ]);

  const got = await svc.call('GET', `/api/store-products/${storeId}/${p.id}`, { key: dev.key });
  expect(got.body.result).toEqual(p);

  const small = p.variants[0];
  const updated = await svc.call('PUT', `/api/store-products/${storeId}/${p.id}`, {
    key: dev.key,
    body: {
      title: 'Renamed',
      variants: [
        { ...small, priceMinor: 999 },
        { sku: 'P1-XL', title: 'XL', priceMinor: 3000, currency: 'USD', stock: 1 },
      ],
    },
  });
  expect(updated.status).toBe(200);
  expect(updated.body.result.title).toBe('Renamed');
  expect(updated.body.result.variants[0]).toEqual({ ...small, priceMinor: 999 });
  expect(updated.body.result.variants.map((v: { sku: string }) => v.sku)).toEqual(['P1-S', 'P1-XL']);
  const rows = await svc.db.query('SELECT sku, price_minor FROM store_variants WHERE product_id = $1 ORDER BY position', [p.id]);
  expect(rows.rows).toEqual([
    { sku: 'P1-S', price_minor: '999' },
    { sku: 'P1-XL', price_minor: '3000' },
  ]);

  expect((await svc.call('DELETE', `/api/store-products/${storeId}/${p.id}`, { key: dev.key })).status).toBe(204);
  expect((await svc.call('GET', `/api/store-products/${storeId}/${p.id}`, { key: dev.key })).status).toBe(404);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM store_variants WHERE product_id = $1', [p.id])).rows[0].n).toBe(0);
});

test('a SKU already used in the store: 409 skuTaken, nothing half-written', async () => {
  await svc.call('POST', `/api/store-products/${storeId}`, { key: dev.key, body: body(2) });
  const before = (await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId])).rows[0].n;
  const dup = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: dev.key,
    body: { ...body(3), variants: [body(3).variants[0], body(2).variants[0]] },
  });
  expect(dup.status).toBe(409);
  expect(dup.body.error.code).toBe('skuTaken');
  const after = (await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId])).rows[0].n;
  expect(after).toBe(before);
});

test('credits: each create is charged to the key owner, with a ledger row naming the key; a failed create is refunded', async () => {
  const credits = async () => (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [dev.accountId])).rows[0].credits as number;
  const start = await credits();
  const ok = await svc.call('POST', `/api/store-products/${storeId}`, { key: dev.key, body: body(10), headers: { 'X-Request-Id': 'charge-1' } });
  expect(ok.status).toBe(201);
  expect(await credits()).toBe(start - 1);
  const ledger = await svc.db.query('SELECT account_id, api_key_id, action, amount, balance_after FROM credit_ledger WHERE request_id = $1', ['charge-1']);
  expect(ledger.rows).toEqual([{ account_id: dev.accountId, api_key_id: dev.keyId, action: 'storeProduct.create', amount: -1, balance_after: start - 1 }]);

  const failed = await svc.call('POST', `/api/store-products/${storeId}`, { key: dev.key, body: body(10), headers: { 'X-Request-Id': 'charge-2' } });
  expect(failed.status).toBe(409);
  expect(await credits()).toBe(start - 1);
  const refund = await svc.db.query('SELECT action, amount FROM credit_ledger WHERE request_id = $1 ORDER BY id', ['charge-2']);
  expect(refund.rows).toEqual([
    { action: 'storeProduct.create', amount: -1 },
    { action: 'storeProduct.create.refund', amount: 1 },
  ]);
});

test('the same price for a signed-in session as for a key', async () => {
  const before = (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [dev.accountId])).rows[0].credits;
  const res = await svc.call('POST', `/api/store-products/${storeId}`, { session: dev.session, body: body(11) });
  expect(res.status).toBe(201);
  const after = (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [dev.accountId])).rows[0].credits;
  expect(before - after).toBe(1);
});

test("a staff member's key is charged to the staff member's own account", async () => {
  const staff = await newDeveloper(svc, { credits: 10 });
  await svc.call('PUT', `/api/stores/${storeId}/staff`, { key: dev.key, body: { email: staff.email, permissions: ['products.manage', 'products.view'] } });
  const ownerBefore = (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [dev.accountId])).rows[0].credits;
  const res = await svc.call('POST', `/api/store-products/${storeId}`, { key: staff.key, body: body(12) });
  expect(res.status).toBe(201);
  const staffRow = (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [staff.accountId])).rows[0];
  expect(staffRow.credits).toBe(110 - 1);
  expect((await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [dev.accountId])).rows[0].credits).toBe(ownerBefore);
});

describe('cursor paging', () => {
  let pageStore: string;
  beforeAll(async () => {
    pageStore = await createStore(svc, dev.key, 'Paging');
    for (let i = 0; i < 7; i++) {
      const r = await svc.call('POST', `/api/store-products/${pageStore}`, { key: dev.key, body: { ...body(100 + i), variants: [body(100 + i).variants[0]] } });
      expect(r.status).toBe(201);
    }
  });

  test('walks every row once, newest first, forward and back, with exact pagination fields', async () => {
    const seenIds: string[] = [];
    let cursor: string | null = null;
    const pages: any[] = [];
    do {
      const url: string = `/api/store-products/${pageStore}?pageSize=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await svc.call('GET', url, { key: dev.key });
      expect(res.status).toBe(200);
      pages.push(res.body.result);
      seenIds.push(...res.body.result.items.map((p: { id: string }) => p.id));
      cursor = res.body.result.pagination.nextCursor;
      if (!res.body.result.pagination.hasMore) break;
    } while (cursor);
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.pagination.hasMore)).toEqual([true, true, false]);
    expect(pages[0].pagination).toMatchObject({ previousCursor: null, totalCount: 7, pageSize: 3 });
    expect(new Set(seenIds).size).toBe(7);
    const titles = pages.flatMap((p) => p.items.map((i: { title: string }) => i.title));
    expect(titles).toEqual([...titles].sort().reverse());

    const back = await svc.call('GET', `/api/store-products/${pageStore}?pageSize=3&cursor=${encodeURIComponent(pages[2].pagination.previousCursor)}`, {
      key: dev.key,
    });
    expect(back.body.result.items.map((p: { id: string }) => p.id)).toEqual(pages[1].items.map((p: { id: string }) => p.id));
  });

  test('a listed product is what reading it alone answers: every field, its times to the millisecond', async () => {
    // The list prints its times in SQL, the single read through Date: both must cut the microseconds the same way.
    const items = (await svc.call('GET', `/api/store-products/${pageStore}?pageSize=10`, { key: dev.key })).body.result.items;
    expect(items).toHaveLength(7);
    for (const item of items) {
      expect(item.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(item).toEqual((await svc.call('GET', `/api/store-products/${pageStore}/${item.id}`, { key: dev.key })).body.result);
    }
  });

  test('a cursor used with other filters, tampered with, or made up: 400 invalidCursor', async () => {
    const first = await svc.call('GET', `/api/store-products/${pageStore}?pageSize=2`, { key: dev.key });
    const cursor = first.body.result.pagination.nextCursor as string;
    const other = await svc.call('GET', `/api/store-products/${pageStore}?pageSize=2&status=draft&cursor=${encodeURIComponent(cursor)}`, { key: dev.key });
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('invalidCursor');
    const otherStore = await svc.call('GET', `/api/store-products/${storeId}?cursor=${encodeURIComponent(cursor)}`, { key: dev.key });
    expect(otherStore.body.error.code).toBe('invalidCursor');
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
    expect((await svc.call('GET', `/api/store-products/${pageStore}?cursor=${encodeURIComponent(tampered)}`, { key: dev.key })).body.error.code).toBe(
      'invalidCursor',
    );
    expect((await svc.call('GET', `/api/store-products/${pageStore}?cursor=garbage`, { key: dev.key })).body.error.code).toBe('invalidCursor');
  });
});

test('record scope: an own key lists and edits only its own records; an account key reaches all', async () => {
  const own = await createKey(svc, dev.session, 'own', 'own');
  const other = await createKey(svc, dev.session, 'own 2', 'own');
  const scopeStore = await createStore(svc, dev.key, 'Scope');
  const mine = (await svc.call('POST', `/api/store-products/${scopeStore}`, { key: own.key, body: body(200) })).body.result;
  const theirs = (await svc.call('POST', `/api/store-products/${scopeStore}`, { key: other.key, body: body(201) })).body.result;
  expect(mine.createdByKeyId).toBe(own.id);

  const ownList = await svc.call('GET', `/api/store-products/${scopeStore}`, { key: own.key });
  expect(ownList.body.result.items.map((p: { id: string }) => p.id)).toEqual([mine.id]);
  expect(ownList.body.result.pagination.totalCount).toBe(1);
  expect((await svc.call('GET', `/api/store-products/${scopeStore}/${theirs.id}`, { key: own.key })).status).toBe(404);
  expect((await svc.call('PUT', `/api/store-products/${scopeStore}/${theirs.id}`, { key: own.key, body: { title: 'x' } })).status).toBe(404);
  expect((await svc.call('DELETE', `/api/store-products/${scopeStore}/${theirs.id}`, { key: own.key })).status).toBe(404);

  const all = await svc.call('GET', `/api/store-products/${scopeStore}`, { key: dev.key });
  expect(all.body.result.items.map((p: { id: string }) => p.id).sort()).toEqual([mine.id, theirs.id].sort());

  // A scope change applies to the key's next call.
  await svc.call('PATCH', `/api/api-keys/${own.id}`, { session: dev.session, body: { recordScope: 'account' } });
  expect((await svc.call('GET', `/api/store-products/${scopeStore}/${theirs.id}`, { key: own.key })).status).toBe(200);
});

leakScanTest();
