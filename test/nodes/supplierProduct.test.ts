/** Supplier Product operations: search with cursor paging, get, resolve URL. */

import { leakScanTest } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { rl } from './support/context';
import { credentialsOf, runNode, runNodeError, startWorld, World } from './support/world';

let world: World;
let shop: Shop;

beforeAll(async () => {
	world = await startWorld('node-supplier-products');
	shop = await openShop(world.svc, world.sandbox, { page: 6, products: 1 });
}, 120000);
afterAll(async () => {
	await world.stop();
});

const creds = () => credentialsOf(world.svc, shop.owner.key);
const products = () => `/api/store-suppliers/${shop.storeId}/${shop.connId}/products`;
const params = (p: Record<string, unknown>) => ({ resource: 'supplierProduct', store: rl(shop.storeId), connection: rl(shop.connId), ...p });

test('search with a limit asks for pages of min(limit, 100) and stops as soon as it has enough', async () => {
	const five = await runNode(creds(), params({ operation: 'search', query: '', returnAll: false, limit: 5 }));
	expect(five.rec.requests).toHaveLength(1);
	expect(five.rec.last()).toMatchObject({ method: 'GET', path: products(), query: { pageSize: '5' } });
	expect(five.json).toHaveLength(5);

	const many = await runNode(creds(), params({ operation: 'search', query: '', returnAll: false, limit: 150 }));
	expect(many.rec.requests.map((r) => r.query.pageSize)).toEqual(['100', '100']);
	expect(many.rec.requests[0].query.cursor).toBeUndefined();
	expect(many.rec.requests[1].query.cursor).toEqual(expect.any(String));
	expect(many.json).toHaveLength(150);
	expect(new Set(many.json.map((p) => p.id)).size).toBe(150);
});

test('search with Return All follows nextCursor until hasMore is false, with the same query on every page', async () => {
	const { json, rec } = await runNode(creds(), params({ operation: 'search', query: 'a', returnAll: true }));
	expect(rec.requests.length).toBeGreaterThan(1);
	expect(rec.requests.every((r) => r.query.query === 'a' && r.query.pageSize === '100')).toBe(true);
	for (let i = 1; i < rec.requests.length; i++) expect(rec.requests[i].query.cursor).toEqual(expect.any(String));
	const direct = await world.svc.call('GET', `${products()}?query=a&pageSize=1`, { key: shop.owner.key });
	expect(json).toHaveLength(direct.body.result.pagination.totalCount);
	expect(new Set(json.map((p) => p.id)).size).toBe(json.length);
	expect(json.every((p) => typeof p.title === 'string' && Array.isArray(p.variants))).toBe(true);
});

test('get answers one supplier product; an unknown one is the service\'s error', async () => {
	const { json, rec } = await runNode(creds(), params({ operation: 'get', supplierProductId: shop.products[0].supplierProductId }));
	expect(rec.last()).toMatchObject({ method: 'GET', path: `${products()}/${shop.products[0].supplierProductId}` });
	expect(json[0]).toMatchObject({ id: shop.products[0].supplierProductId, variants: expect.any(Array) });
	const { error } = await runNodeError(creds(), params({ operation: 'get', supplierProductId: 'SBX-NOPE' }));
	expect(error.name).toBe('NodeApiError');
	expect(error.message).toMatch(/\[\w+\]$/);
	expect(error.httpCode).toMatch(/^4/);
});

test('resolve URL turns a product page link into the supplier product; other links are refused without a fetch', async () => {
	const id = shop.products[0].supplierProductId;
	const { json, rec } = await runNode(creds(), params({ operation: 'resolveUrl', url: `https://shop.sandbox-supplier.test/p/${id}` }));
	expect(rec.last()).toMatchObject({ method: 'POST', path: `${products()}/resolve-url`, body: { url: `https://shop.sandbox-supplier.test/p/${id}` } });
	expect(json[0]).toMatchObject({ supplierProductId: id, product: { id } });
	const { error } = await runNodeError(creds(), params({ operation: 'resolveUrl', url: 'https://example.com/p/1' }));
	expect(error.message).toMatch(/\[unsupportedUrl\]$/);
});

leakScanTest();
