/** Product Link operations: list with paging and filters, create, update, sync, delete. */
import { leakScanTest } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { rl } from './support/context';
import { credentialsOf, runNode, runNodeError, startWorld, World } from './support/world';

let world: World;
let shop: Shop;

beforeAll(async () => {
	world = await startWorld('node-links');
	shop = await openShop(world.svc, world.sandbox, { page: 10, products: 3 });
}, 120000);
afterAll(async () => {
	await world.stop();
});

const creds = () => credentialsOf(world.svc, shop.owner.key);
const links = () => `/api/store-suppliers/${shop.storeId}/links`;
const params = (p: Record<string, unknown>) => ({ resource: 'productLink', store: rl(shop.storeId), ...p });

test('get many: limit pages of min(limit, 100); filters go as query fields; Return All reads all', async () => {
	const two = await runNode(creds(), params({ operation: 'getAll', returnAll: false, limit: 2, filters: {} }));
	expect(two.rec.requests).toHaveLength(1);
	expect(two.rec.last()).toMatchObject({ method: 'GET', path: links(), query: { pageSize: '2' } });
	expect(two.json).toHaveLength(2);

	const all = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: {} }));
	expect(all.rec.last().query).toEqual({ pageSize: '100' });
	expect(all.json.map((l) => l.productId).sort()).toEqual(shop.products.map((p) => p.productId).sort());

	const one = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: { connectionId: shop.connId, productId: shop.products[1].productId } }));
	expect(one.rec.last().query).toEqual({ pageSize: '100', connectionId: shop.connId, productId: shop.products[1].productId });
	expect(one.json.map((l) => l.productId)).toEqual([shop.products[1].productId]);
});

test('create links a product the store already has; update, sync and delete act on the link', async () => {
	const own = await world.svc.call('POST', `/api/store-products/${shop.storeId}`, {
		key: shop.owner.key,
		body: { title: 'Own lamp', variants: [{ sku: 'OWN-1', title: 'One', priceMinor: 5000, currency: 'USD', stock: 3 }] },
	});
	expect(own.status).toBe(201);
	const product = own.body.result;
	const supplierProduct = (await world.sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=20&page=11')).body.items[0];

	const created = await runNode(
		creds(),
		params({
			operation: 'create',
			connection: rl(shop.connId, 'list'),
			productId: product.id,
			supplierProductId: supplierProduct.id,
			variants: { variant: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }] },
			options: { priceRule: { multiplier: '2' }, sync: { stock: false } },
		}),
	);
	expect(created.rec.last()).toMatchObject({
		method: 'POST',
		path: links(),
		status: 201,
		body: {
			productId: product.id,
			connectionId: shop.connId,
			supplierProductId: supplierProduct.id,
			variants: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }],
			priceRule: { multiplier: '2' },
			sync: { stock: false },
		},
	});
	const link = created.json[0];
	expect(link).toMatchObject({ productId: product.id, supplierProductId: supplierProduct.id, sync: { stock: false } });

	const updated = await runNode(creds(), params({ operation: 'update', linkId: link.id, updateFields: { priceRule: { multiplier: '3', endingMinor: 99 }, sync: { title: true } } }));
	expect(updated.rec.last()).toMatchObject({ method: 'PUT', path: `${links()}/${link.id}`, body: { priceRule: { multiplier: '3', endingMinor: 99 }, sync: { title: true } } });
	expect(updated.json[0]).toMatchObject({ id: link.id, sync: { title: true, stock: false } });

	const nothing = await runNodeError(creds(), params({ operation: 'update', linkId: link.id, updateFields: {} }));
	expect(nothing.error.message).toBe('Add at least one field to update');

	const synced = await runNode(creds(), params({ operation: 'sync', linkId: link.id }));
	expect(synced.rec.last()).toMatchObject({ method: 'POST', path: `${links()}/${link.id}/sync` });
	expect(synced.json[0]).toMatchObject({ id: link.id, lastSyncAt: expect.any(String) });

	const deleted = await runNode(creds(), params({ operation: 'delete', linkId: link.id }));
	expect(deleted.rec.last()).toMatchObject({ method: 'DELETE', path: `${links()}/${link.id}`, status: 204 });
	expect(deleted.json).toEqual([{ id: link.id, deleted: true }]);
	expect(deleted.out[0].pairedItem).toEqual({ item: 0 });

	const again = await runNodeError(creds(), params({ operation: 'delete', linkId: link.id }));
	expect(again.error.message).toMatch(/\[notFound\]$/);
});

leakScanTest();
