/** Import operations: preview, import, and the background job of a large import. */
import { recordSearch } from '../../nodes/StoreSuppliers/methods';
import { leakScanTest, Sandbox } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { StoreSuppliers } from '../../nodes/StoreSuppliers/StoreSuppliers.node';
import { loadOptionsContext, rl } from './support/context';
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
	// Get Many Jobs lists it, and the Import Job picker offers it.
	const jobs = await runNode(creds(), { resource: 'import', operation: 'getJobs', store: rl(shop.storeId), returnAll: true });
	expect(jobs.rec.last()).toMatchObject({ method: 'GET', path: `${base()}/imports` });
	expect(jobs.json.map((j) => j.id)).toContain(json[0].id);
	const picker = loadOptionsContext({ credentials: creds(), parameters: { store: rl(shop.storeId, 'list') } });
	const offered = await recordSearch.searchImportJobs.call(picker.ctx);
	expect(offered.results.map((r) => r.value)).toContain(json[0].id);
});

test('no product given is refused before any request', async () => {
	const { error, rec } = await runNodeError(creds(), params({ operation: 'preview', products: { product: [{ supplierProductId: ' ' }] } }));
	expect(error.message).toBe('Add at least one supplier product');
	expect(rec.requests).toHaveLength(0);
});

test('the price rule is on purpose: the editor starts at twice the cost to x.99, a run without a rule gets the same, and preview shows each margin', async () => {
	const fields = new StoreSuppliers().description.properties.filter((p) => p.name === 'priceRule');
	expect(fields.length).toBeGreaterThan(0);
	for (const f of fields) expect(f.default).toEqual({ multiplier: '2', endingMinor: 99 });

	const [p] = await catalogue(world.sandbox, 9);
	const product = { product: [{ supplierProductId: p.id, variantIds: '' }] };
	const withDefault = await runNode(creds(), params({ operation: 'preview', products: product, priceRule: { multiplier: '2', endingMinor: 99 } }));
	const withoutRule = await runNode(creds(), params({ operation: 'preview', products: product, priceRule: {} }));
	expect(withoutRule.rec.last().body).toEqual({ products: [{ supplierProductId: p.id }] });
	const variants = (withoutRule.json[0].items as any[])[0].variants as any[];
	expect(variants.length).toBeGreaterThan(0);
	expect(variants.map((v) => v.priceMinor)).toEqual(((withDefault.json[0].items as any[])[0].variants as any[]).map((v) => v.priceMinor));
	for (const v of variants) {
		// Twice the cost, rounded up to the next x.99: never at cost.
		const twice = v.costMinor * 2;
		expect(v.priceMinor % 100).toBe(99);
		expect(v.priceMinor).toBeGreaterThanOrEqual(twice);
		expect(v.priceMinor - twice).toBeLessThan(100);
		expect(v.profitMinor).toBe(v.priceMinor - v.costMinor);
		expect(v.marginPercent).toBe(Math.round((v.profitMinor / v.priceMinor) * 1000) / 10);
		expect(v.marginPercent).toBeGreaterThan(45);
	}
});

leakScanTest();
