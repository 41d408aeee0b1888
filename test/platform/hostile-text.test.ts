/**
 * Text Postgres cannot store is refused at the door: every string and field name of every path parameter, query
 * and body, with 400 validationFailed naming the field; every free-text field has a maximum length.
 */
import { leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop, US_ADDRESS } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'hostile-text', sandbox });
  shop = await openShop(svc, sandbox, { products: 1 });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const NUL = 'must not contain a NUL character';
const SURROGATE = 'must not contain an unpaired surrogate';

test.each([
  ['store name', 'POST', () => '/api/stores', () => ({ name: 'Shop\u0000', currency: 'USD' }), 'body/name', NUL],
  [
    'store product title',
    'POST',
    () => `/api/store-products/${shop.storeId}`,
    () => ({ title: 'Mug\ud800', variants: [{ sku: 'S1', title: 'One', priceMinor: 100, currency: 'USD', stock: 1 }] }),
    'body/title',
    SURROGATE,
  ],
  [
    'variant sku',
    'POST',
    () => `/api/store-products/${shop.storeId}`,
    () => ({ title: 'Mug', variants: [{ sku: '\udfffS', title: 'One', priceMinor: 100, currency: 'USD', stock: 1 }] }),
    'body/variants/0/sku',
    SURROGATE,
  ],
  [
    'order destination',
    'POST',
    () => `/api/store-orders/${shop.storeId}`,
    () => ({
      items: [{ productId: shop.products[0].productId, variantId: shop.products[0].variantId, quantity: 1 }],
      destination: { ...US_ADDRESS, city: 'Spring\u0000field' },
    }),
    'body/destination/city',
    NUL,
  ],
  [
    'connection settings',
    'PUT',
    () => `/api/store-suppliers/${shop.storeId}/${shop.connId}/settings`,
    () => ({ settings: { orderNotePrefix: 'x\u0000' } }),
    'body/settings/orderNotePrefix',
    NUL,
  ],
  [
    'a field name in settings',
    'PUT',
    () => `/api/store-suppliers/${shop.storeId}/${shop.connId}/settings`,
    () => ({ settings: { 'order\u0000NotePrefix': 'x' } }),
    'body/settings',
    'has a field name containing a NUL character',
  ],
  [
    'imported product id',
    'POST',
    () => `/api/store-suppliers/${shop.storeId}/${shop.connId}/import`,
    () => ({ products: [{ supplierProductId: '\udfff\ud800' }] }),
    'body/products/0/supplierProductId',
    SURROGATE,
  ],
])('%s: 400 validationFailed naming the field, nothing stored', async (_what, method, url, body, field, message) => {
  const res = await svc.call(method, url(), { key: shop.owner.key, body: body() });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('validationFailed');
  expect(res.body.error.details).toContainEqual({ field, message });
});

test('query and path parameters are held to the same rule', async () => {
  const search = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products?query=a%00b`, { key: shop.owner.key });
  expect([search.status, search.body.error.details]).toEqual([400, [{ field: 'query/query', message: NUL }]]);
  const product = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products/SBX%00P1`, { key: shop.owner.key });
  expect(product.status).toBe(400);
  expect(product.body.error.details).toContainEqual({ field: 'params/supplierProductId', message: NUL });
});

test('JSON escapes of NUL and lone surrogates are refused like the characters; deep nesting too', async () => {
  const raw = (text: string) => svc.call('POST', '/api/stores', { key: shop.owner.key, rawBody: text, headers: { 'Content-Type': 'application/json' } });
  const nul = await raw('{"name":"a\\u0000","currency":"USD"}');
  expect([nul.status, nul.body.error.details]).toEqual([400, [{ field: 'body/name', message: NUL }]]);
  const lone = await raw('{"name":"\\ud800","currency":"USD"}');
  expect([lone.status, lone.body.error.details]).toEqual([400, [{ field: 'body/name', message: SURROGATE }]]);
  const deep = await raw(`{"name":${'['.repeat(5000)}${']'.repeat(5000)},"currency":"USD"}`);
  expect(deep.status).toBe(400);
  expect(deep.body.error.details[0].message).toMatch(/nested deeper than 32 levels/);
  const stores = (await svc.call('GET', '/api/stores', { key: shop.owner.key })).body.result;
  expect(JSON.stringify(stores)).not.toMatch(/\\u0000|\\ud800/);
});

test('every string a request can carry has a maximum length in the OpenAPI document', async () => {
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  const unbounded: string[] = [];
  const walk = (node: any, at: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    const type = node.type;
    if (
      (type === 'string' || (Array.isArray(type) && type.includes('string'))) &&
      node.maxLength === undefined &&
      node.enum === undefined &&
      node.const === undefined
    )
      unbounded.push(at);
    for (const [k, v] of Object.entries(node)) if (k !== 'enum' && k !== 'const' && k !== 'default') walk(v, `${at}/${k}`);
  };
  for (const [p, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      for (const param of op.parameters ?? []) walk(param.schema, `${method} ${p} ${param.name}`);
      walk(op.requestBody?.content?.['application/json']?.schema, `${method} ${p} body`);
    }
  }
  expect(unbounded).toEqual([]);
  const long = await svc.call('POST', '/api/api-keys', { session: shop.owner.session, body: { name: 'k'.repeat(2001), recordScope: 'own' } });
  expect(long.status).toBe(400);
  expect(long.body.error.details[0].field).toBe('body/name');
});

leakScanTest();
