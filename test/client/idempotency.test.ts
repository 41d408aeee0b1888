/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The client sends an Idempotency-Key on every create and money action, made once per call and the same on each of
 * its retries (issue 56, item 5): a create whose answer is lost on the way back (the connection dropped after the
 * service committed) is sent again and counts one, over HTTP against the real service.
 */
import { leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { StoreClient, watchedFetch } from './support';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'client_idempotency', sandbox, privateTargets: true });
  shop = await openShop(svc, sandbox, { page: 7 });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
});

/** The real fetch, except that the first answer to a POST on `path` is dropped once it has arrived (as a reset connection). */
function losingFirstAnswer(path: RegExp) {
  const w = watchedFetch();
  let lost = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const res = await w.fetch(input, init);
    if (init?.method === 'POST' && path.test(new URL(String(input)).pathname) && lost === 0) {
      lost++;
      await res.text();
      throw new TypeError('fetch failed: other side closed');
    }
    return res;
  };
  return { store: new StoreClient({ apiKey: shop.owner.key, baseUrl: svc.baseUrl, fetch }), sent: w.sent };
}

const count = async (sql: string, params: unknown[]) => Number((await svc.db.query(sql, params)).rows[0].n);

test('an import whose answer was lost is sent again with the same key: imported and charged once', async () => {
  const items = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=8')).body.items.filter(
    (p: any) => p.variants[0].available && p.shipsTo.includes('US'),
  );
  const { store, sent } = losingFirstAnswer(/\/import$/);
  const credits = async () => Number((await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [shop.owner.accountId])).rows[0].credits);
  const before = await credits();
  const done: any = await store.suppliers.imports.run(shop.storeId, shop.connId, {
    products: [{ supplierProductId: items[0].id, variantIds: [items[0].variants[0].id] }],
  });
  const posts = sent.filter((s) => s.method === 'POST');
  expect(posts).toHaveLength(2);
  const keys = posts.map((s) => s.headers.get('idempotency-key'));
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(posts.map((s) => s.status)).toEqual([201, 201]);
  expect(await count('SELECT count(*)::int AS n FROM product_links WHERE store_id = $1 AND supplier_product_id = $2', [shop.storeId, items[0].id])).toBe(1);
  expect(done.products).toHaveLength(1);
  expect(before - (await credits())).toBe(2);
});

test('a subscription whose answer was lost is made once, and the retry shows its secret', async () => {
  const { store, sent } = losingFirstAnswer(/\/event-subscriptions$/);
  const made = await store.suppliers.events.create(shop.storeId, { url: 'http://127.0.0.1:9/client-hook', eventTypes: ['supplierOrder.created'] });
  seen.secrets.add(made.secret!);
  const posts = sent.filter((s) => s.method === 'POST');
  expect(posts.map((s) => s.headers.get('idempotency-key'))).toEqual([posts[0].headers.get('idempotency-key'), posts[0].headers.get('idempotency-key')]);
  expect(await count("SELECT count(*)::int AS n FROM event_subscriptions WHERE store_id = $1 AND url = 'http://127.0.0.1:9/client-hook'", [shop.storeId])).toBe(
    1,
  );
  expect(made.secret).toMatch(/\S{16,}/);
});

test('two calls are two keys; a key of your own is sent as given; reads carry none', async () => {
  const w = watchedFetch();
  const store = new StoreClient({ apiKey: shop.owner.key, baseUrl: svc.baseUrl, fetch: w.fetch });
  const body = { url: 'http://127.0.0.1:9/twice', eventTypes: ['supplierOrder.created' as const] };
  const a = await store.suppliers.events.create(shop.storeId, body);
  const b = await store.suppliers.events.create(shop.storeId, body);
  const c = await store.suppliers.events.create(shop.storeId, body, { idempotencyKey: 'my-own-key-1' });
  const d = await store.suppliers.events.create(shop.storeId, body, { idempotencyKey: 'my-own-key-1' });
  for (const s of [a, b, c]) seen.secrets.add(s.secret!);
  expect(new Set([a.id, b.id, c.id]).size).toBe(3);
  expect(d.id).toBe(c.id);
  const keys = w.sent.map((s) => s.headers.get('idempotency-key'));
  expect(keys[0]).not.toBe(keys[1]);
  expect(keys.slice(2)).toEqual(['my-own-key-1', 'my-own-key-1']);
  await store.suppliers.events.get(shop.storeId, a.id);
  expect(w.sent.at(-1)!.headers.get('idempotency-key')).toBeNull();
});

leakScanTest();
