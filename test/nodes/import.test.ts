/** Import operations: preview, import, and the background job of a large import. */
import { leakScanTest, Sandbox } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { rl } from './support/context';
import { credentialsOf, runNode, runNodeError, startWorld, World } from './support/world';

let world: World;
let shop: Shop;

beforeAll(async () => {
	world = await startWorld('node-imports');
	shop = await openShop(world.svc, world.sandbox, { page: 7, products: 1 });
}, 120000);
afterAll(async () => {
	await world.stop();
});

const creds = () => credentialsOf(world.svc, shop.owner.key);
const base = () => `/api/store-suppliers/${shop.storeId}`;
const params = (p: Record<string, unknown>) => ({ resource: 'import', store: rl(shop.storeId), connection: rl(shop.connId), ...p });

async function catalogue(sandbox: Sandbox, page: number) {
	return (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=100&page=${page}`)).body.items as Array<{ id: string; variants: Array<{ id: string }> }>;
}

test('preview prices the chosen products with the price rule and names duplicates; nothing is created', async () => {
	const [p] = await catalogue(world.sandbox, 8);
	const { json, rec } = await runNode(
		creds(),
		params({
			operation: 'preview',
			products: { product: [{ supplierProductId: p.id, variantIds: ` ${p.variants[0].id} ` }, { supplierProductId: shop.products[0].supplierProductId, variantIds: '' }] },
			priceRule: { multiplier: '2', endingMinor: 99, compareAtMultiplier: '' },
		}),
	);
	expect(rec.last()).toMatchObject({
		method: 'POST',
		path: `${base()}/${shop.connId}/import/preview`,
		body: {
			products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }, { supplierProductId: shop.products[0].supplierProductId }],
			priceRule: { multiplier: '2', endingMinor: 99 },
		},
	});
	expect(json).toHaveLength(1);
	const items = json[0].items as any[];
	expect(items.map((i) => i.supplierProductId)).toEqual([p.id, shop.products[0].supplierProductId]);
	expect(items[1].duplicateOf).toEqual([shop.products[0].productId]);
	expect(items[0].variants[0].priceMinor % 100).toBe(99);
});

test('import creates store products with links, with the sync switches and status asked for', async () => {
	const [, p] = await catalogue(world.sandbox, 8);
	const { json, rec } = await runNode(
		creds(),
		params({
			operation: 'importProducts',
			products: { product: [{ supplierProductId: p.id }] },
			priceRule: { multiplier: '1.5', markupMinor: 100 },
			sync: { title: true },
			status: 'draft',
		}),
	);
	expect(rec.last()).toMatchObject({
		method: 'POST',
		path: `${base()}/${shop.connId}/import`,
		body: { products: [{ supplierProductId: p.id }], priceRule: { multiplier: '1.5', markupMinor: 100 }, sync: { title: true }, status: 'draft' },
		status: 201,
	});
	expect(json[0]).toMatchObject({ errors: [], products: [expect.objectContaining({ status: 'draft' })], links: [expect.objectContaining({ supplierProductId: p.id })] });
	expect((json[0].links as any[])[0].sync).toMatchObject({ title: true, cost: true });
});

test('more than 50 products answer a background job; Get Job reads its progress', async () => {
	const page = await catalogue(world.sandbox, 9);
	const { json, rec } = await runNode(
		creds(),
		params({ operation: 'importProducts', products: { product: page.slice(0, 51).map((p) => ({ supplierProductId: p.id })) }, status: 'active' }),
	);
	expect(rec.last().status).toBe(202);
	expect(json[0]).toMatchObject({ id: expect.any(String), status: expect.stringMatching(/queued|running|completed/), total: 51 });
	const job = await runNode(creds(), { resource: 'import', operation: 'getJob', store: rl(shop.storeId), jobId: json[0].id });
	expect(job.rec.last()).toMatchObject({ method: 'GET', path: `${base()}/imports/${json[0].id}` });
	expect(job.json[0]).toMatchObject({ id: json[0].id, total: 51, connectionId: shop.connId });
});

test('no product given is refused before any request', async () => {
	const { error, rec } = await runNodeError(creds(), params({ operation: 'preview', products: { product: [{ supplierProductId: ' ' }] } }));
	expect(error.message).toBe('Add at least one supplier product');
	expect(rec.requests).toHaveLength(0);
});

leakScanTest();
