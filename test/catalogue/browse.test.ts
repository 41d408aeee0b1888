import http from 'node:http';
import { createStore, Developer, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let connId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'browse', sandbox });
  owner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
  const acc = await sandbox.account();
  connId = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const path = (p: string) => `/api/store-suppliers/${storeId}/${connId}${p}`;

test('browse pages through the supplier catalogue by cursor; a search narrows it', async () => {
  const first = await svc.call('GET', path('/products?pageSize=20'), { key: owner.key });
  expect(first.status).toBe(200);
  expect(first.body.result.items).toHaveLength(20);
  expect(first.body.result.pagination).toMatchObject({ hasMore: true, pageSize: 20, previousCursor: null });
  expect(first.body.result.pagination.totalCount).toBeGreaterThanOrEqual(1000);
  const second = await svc.call('GET', path(`/products?pageSize=20&cursor=${encodeURIComponent(first.body.result.pagination.nextCursor)}`), { key: owner.key });
  const ids = new Set([...first.body.result.items, ...second.body.result.items].map((p: { id: string }) => p.id));
  expect(ids.size).toBe(40);
  const v = first.body.result.items[0].variants[0];
  expect(v).toEqual({
    id: expect.any(String),
    sku: expect.any(String),
    title: expect.any(String),
    options: expect.any(Object),
    cost: { amountMinor: expect.any(Number), currency: 'USD' },
    stock: expect.any(Number),
    available: expect.any(Boolean),
  });
  expect(Number.isInteger(v.cost.amountMinor)).toBe(true);

  const word = first.body.result.items[0].title.split(' ').pop().toLowerCase();
  const search = await svc.call('GET', path(`/products?query=${encodeURIComponent(word)}&pageSize=100`), { key: owner.key });
  expect(search.body.result.items.length).toBeGreaterThan(0);
  expect(
    search.body.result.items.every((p: { title: string; id: string; variants: Array<{ sku: string }> }) =>
      `${p.title} ${p.id} ${p.variants.map((x) => x.sku).join(' ')}`.toLowerCase().includes(word),
    ),
  ).toBe(true);
  expect(search.body.result.pagination.totalCount).toBeLessThan(first.body.result.pagination.totalCount);

  // A cursor belongs to its query.
  const mixed = await svc.call('GET', path(`/products?query=zzz&cursor=${encodeURIComponent(first.body.result.pagination.nextCursor)}`), { key: owner.key });
  expect(mixed.status).toBe(400);
  expect(mixed.body.error.code).toBe('invalidCursor');
});

test('one supplier product with variants, costs and stock; an unknown one is 404', async () => {
  const res = await svc.call('GET', path('/products/SBX-P00042'), { key: owner.key });
  expect(res.status).toBe(200);
  const direct = await sandbox.v1('sbx_live_demo', 'GET', '/products/SBX-P00042');
  expect(res.body.result).toMatchObject({ id: 'SBX-P00042', title: direct.body.title, url: direct.body.url, shipsTo: direct.body.shipsTo });
  expect(res.body.result.variants.map((v: any) => [v.id, v.cost.amountMinor, v.stock, v.available])).toEqual(
    direct.body.variants.map((v: any) => [v.id, v.costMinor, v.stock, v.available]),
  );
  const missing = await svc.call('GET', path('/products/SBX-P99999'), { key: owner.key });
  expect(missing.status).toBe(404);
  expect(missing.body.error).toEqual({ code: 'notFound', message: 'The supplier has no product SBX-P99999.' });
});

test('resolve-url turns a product page address into the supplier product id', async () => {
  const res = await svc.call('POST', path('/products/resolve-url'), {
    key: owner.key,
    body: { url: '  https://shop.sandbox-supplier.test/p/SBX-P00007?ref=mail  ' },
  });
  expect(res.status).toBe(200);
  expect(res.body.result.supplierProductId).toBe('SBX-P00007');
  expect(res.body.result.product.id).toBe('SBX-P00007');
});

test('resolve-url never fetches a pasted address: local, private, metadata, other schemes and unknown hosts are 400 unsupportedUrl', async () => {
  let hits = 0;
  const trap = http.createServer((_req, res) => {
    hits++;
    res.end('x');
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  const port = (trap.address() as { port: number }).port;
  const attempts = [
    `http://127.0.0.1:${port}/p/SBX-P00001`,
    `http://localhost:${port}/p/SBX-P00001`,
    `https://localhost/p/SBX-P00001`,
    'http://10.0.0.8/p/SBX-P00001',
    'http://192.168.1.1/p/SBX-P00001',
    'http://172.16.5.4/p/SBX-P00001',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/p/SBX-P00001',
    'file:///etc/passwd',
    'ftp://shop.sandbox-supplier.test/p/SBX-P00001',
    'gopher://shop.sandbox-supplier.test/p/SBX-P00001',
    'javascript:alert(1)',
    'https://evil.example/p/SBX-P00001',
    'https://shop.sandbox-supplier.test.evil.example/p/SBX-P00001',
    'https://user@shop.sandbox-supplier.test/p/SBX-P00001',
    `https://shop.sandbox-supplier.test:${port}/p/SBX-P00001`,
    'https://shop.sandbox-supplier.test/cart',
    'not a url at all',
  ];
  try {
    for (const url of attempts) {
      const res = await svc.call('POST', path('/products/resolve-url'), { key: owner.key, body: { url } });
      expect([url, res.status, res.body.error.code]).toEqual([url, 400, 'unsupportedUrl']);
    }
  } finally {
    await new Promise((r) => trap.close(r));
  }
  expect(hits).toBe(0);
});

test('a switched-off connection cannot be browsed', async () => {
  const store = await createStore(svc, owner.key, 'Off');
  const acc = await sandbox.account();
  const id = (
    await svc.call('POST', `/api/store-suppliers/${store}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
  await svc.call('PUT', `/api/store-suppliers/${store}/${id}/enabled`, { key: owner.key, body: { enabled: false } });
  const res = await svc.call('GET', `/api/store-suppliers/${store}/${id}/products`, { key: owner.key });
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe('invalidState');
});

leakScanTest();
