/** The store side: store orders and products, From List pickers, Simplify, and the error output. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { StoreSuppliers } from '../../nodes/StoreSuppliers/StoreSuppliers.node';
import { StoreSuppliersTrigger } from '../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { recordSearch } from '../../nodes/StoreSuppliers/methods';
import { leakScanTest } from '../support/harness';
import { openShop, placeOrder, Shop, submit, US_ADDRESS } from '../support/orders';
import { loadOptionsContext, rl } from './support/context';
import { credentialsOf, runNode, runNodeError, startWorld, World } from './support/world';

let world: World;
let shop: Shop; // sandbox balance 0: a payNow submit pauses with insufficientBalance
let limited: Shop; // a cost limit of one cent: every submit pauses at once with costAboveLimit

beforeAll(async () => {
	world = await startWorld('node-store-orders');
	[shop, limited] = await Promise.all([
		openShop(world.svc, world.sandbox, { balanceMinor: 0, page: 11 }),
		openShop(world.svc, world.sandbox, { page: 12, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } }),
	]);
}, 120000);
afterAll(async () => {
	await world.stop();
});

const creds = (s: Shop = shop) => credentialsOf(world.svc, s.owner.key);
const orders = (p: Record<string, unknown>) => ({ resource: 'storeOrder', store: rl(shop.storeId), ...p });

test('create, confirm, record a payment and get a store order with the node alone', async () => {
	const [p] = shop.products;
	const created = await runNode(creds(), orders({
		operation: 'create',
		items: { item: [{ productId: p.productId, variantId: p.variantId, quantity: 2 }] },
		destination: JSON.stringify(US_ADDRESS),
		paymentMethod: 'manual',
		contractModel: 'standard',
	}));
	expect(created.rec.last()).toMatchObject({
		method: 'POST',
		path: `/api/store-orders/${shop.storeId}`,
		body: { items: [{ productId: p.productId, variantId: p.variantId, quantity: 2 }], destination: US_ADDRESS, paymentMethod: 'manual', contractModel: 'standard' },
		status: 201,
	});
	const order = created.json[0];
	expect(order).toMatchObject({ status: 'pending', paymentMethod: 'manual' });
	expect((order.fulfilmentGroups as IDataObject[]).map((g) => g.groupKey)).toEqual([`supplier:${shop.connId}`]);

	const confirmed = await runNode(creds(), orders({ operation: 'confirm', storeOrderId: rl(order.id as string) }));
	expect(confirmed.rec.last()).toMatchObject({ method: 'POST', path: `/api/store-orders/${shop.storeId}/${order.id}/confirm`, status: 200 });
	expect(confirmed.json[0]).toMatchObject({ id: order.id, status: 'confirmed' });

	const paid = await runNode(creds(), orders({ operation: 'markPaid', storeOrderId: rl(order.id as string), additionalFields: { amountMinor: 1999, reference: 'transfer-1' } }));
	expect(paid.rec.last()).toMatchObject({ method: 'POST', path: `/api/store-orders/${shop.storeId}/${order.id}/mark-paid`, status: 200, body: { amountMinor: 1999, reference: 'transfer-1' } });
	// Recorded as manual: the provider's payment status stays as it was.
	expect(paid.json[0]).toMatchObject({ id: order.id, paymentStatus: 'none', markedPaidAt: expect.any(String) });
	expect(paid.json[0].payments).toEqual([expect.objectContaining({ kind: 'paid', source: 'manual', reference: 'transfer-1' })]);

	const full = await runNode(creds(), orders({ operation: 'get', storeOrderId: rl(order.id as string) }));
	expect(full.json[0]).toMatchObject({ id: order.id, destination: expect.objectContaining({ city: US_ADDRESS.city }) });
	expect(full.json[0].items).toHaveLength(1);
	const simple = await runNode(creds(), orders({ operation: 'get', storeOrderId: rl(order.id as string), simplify: true }));
	for (const field of ['items', 'supplierOrders', 'destination']) expect(simple.json[0]).not.toHaveProperty(field);
	expect(simple.json[0]).toMatchObject({ id: order.id, markedPaidAt: expect.any(String) });

	const bad = await runNodeError(creds(), orders({ operation: 'create', items: { item: [] }, destination: '{}' }));
	expect(bad.error.message).toBe('Add at least one item');
	expect(bad.rec.requests).toHaveLength(0);
});

test('get many store orders: needs attention filter, "any" by default, simplified by default', async () => {
	const quiet = await placeOrder(world.svc, shop);
	const waiting = await placeOrder(world.svc, shop);
	await world.svc.call('POST', `/api/store-orders/${shop.storeId}/${waiting.id}/confirm`, { key: shop.owner.key });
	await submit(world.svc, shop, waiting.id, { payNow: true });
	const all = await runNode(creds(), orders({ operation: 'getAll', returnAll: true, filters: {}, simplify: true }));
	expect(all.rec.last().query).toEqual({ pageSize: '100' });
	expect(all.json.map((o) => o.id)).toEqual(expect.arrayContaining([quiet.id, waiting.id]));
	for (const o of all.json) expect(o).not.toHaveProperty('destination');
	let attention: IDataObject[] = [];
	for (let i = 0; i < 60 && !attention.some((o) => o.id === waiting.id); i++) {
		attention = (await runNode(creds(), orders({ operation: 'getAll', returnAll: true, filters: { needsAttention: 'true' }, simplify: true }))).json;
		if (!attention.some((o) => o.id === waiting.id)) await new Promise((r) => setTimeout(r, 500));
	}
	expect(attention.map((o) => o.id)).toContain(waiting.id);
	expect(attention.map((o) => o.id)).not.toContain(quiet.id);
	expect(attention.every((o) => o.needsAttention === true)).toBe(true);
});

test('store products: get many (simplified) and get (whole)', async () => {
	const many = await runNode(creds(), { resource: 'storeProduct', operation: 'getAll', store: rl(shop.storeId), returnAll: true, filters: {}, simplify: true });
	expect(many.json.map((p) => p.id).sort()).toEqual(shop.products.map((p) => p.productId).sort());
	for (const p of many.json) expect(p).not.toHaveProperty('description');
	const one = await runNode(creds(), { resource: 'storeProduct', operation: 'getAll', store: rl(shop.storeId), returnAll: false, limit: 1, filters: { status: 'draft' } });
	expect(one.rec.last().query).toEqual({ status: 'draft', pageSize: '1' });
	const got = await runNode(creds(), { resource: 'storeProduct', operation: 'get', store: rl(shop.storeId), productId: rl(shop.products[0].productId) });
	expect(got.rec.last().path).toBe(`/api/store-products/${shop.storeId}/${shop.products[0].productId}`);
	expect(got.json[0]).toMatchObject({ id: shop.products[0].productId, variants: expect.arrayContaining([expect.objectContaining({ id: shop.products[0].variantId })]) });
	expect(got.json[0]).toHaveProperty('description');
});

test('From List pickers: supplier orders (paused first, with the reason), product links, store orders, store products', async () => {
	const order = await placeOrder(world.svc, limited);
	const paused = (await submit(world.svc, limited, order.id, { payNow: true })).body.result;
	expect(paused).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
	const ctx = () => loadOptionsContext({ credentials: creds(limited), parameters: { store: rl(limited.storeId, 'list') } }).ctx;
	const supplierOrders = await recordSearch.searchSupplierOrders.call(ctx());
	expect(supplierOrders.results[0]).toEqual({ name: `${paused.orderNumber} · sandbox · needs review: costAboveLimit`, value: paused._id });
	const links = await recordSearch.searchProductLinks.call(ctx());
	expect(links.results.map((l) => l.name)).toEqual(expect.arrayContaining([expect.stringContaining(limited.products[0].supplierProductId)]));
	const storeOrders = await recordSearch.searchStoreOrders.call(ctx(), order.number);
	expect(storeOrders.results.map((o) => o.value)).toEqual([order.id]);
	const products = await recordSearch.searchStoreProducts.call(ctx());
	expect(products.results.map((p) => p.value).sort()).toEqual(limited.products.map((p) => p.productId).sort());
});

test('a paused submit under "Continue (using error output)" reaches n8n\'s error output as { error: message, message: { reviewReason, retryable, supplierOrder } } (the one shape n8n 1.x and 2.x both route with its data); under regular output { error, reviewReason, retryable, supplierOrder }', async () => {
	const params = (orderId: string) => ({ resource: 'supplierOrder', operation: 'submit', store: rl(limited.storeId), orderId, connection: rl(limited.connId), options: {} });
	const a = await placeOrder(world.svc, limited);
	const toErrorOutput = await runNode(creds(limited), params(a.id), { onError: 'continueErrorOutput' });
	// Routed by n8n's engine: nothing on the success output, the pause on the error output.
	expect(toErrorOutput.out).toEqual([]);
	expect(toErrorOutput.errorOutput).toHaveLength(1);
	const [item] = toErrorOutput.errorOutput;
	expect(item.json).toEqual({
		error: expect.stringContaining('costAboveLimit'),
		message: { reviewReason: 'costAboveLimit', retryable: expect.any(Boolean), supplierOrder: expect.objectContaining({ orderId: a.id, reviewReason: 'costAboveLimit' }) },
	});
	expect(typeof item.json.error).toBe('string');
	expect(item.pairedItem).toEqual({ item: 0 });
	const b = await placeOrder(world.svc, limited);
	const regular = await runNode(creds(limited), params(b.id), { onError: 'continueRegularOutput' });
	expect(regular.errorOutput).toEqual([]);
	expect(regular.out[0].json).toEqual({
		error: expect.stringContaining('costAboveLimit'),
		reviewReason: 'costAboveLimit',
		retryable: expect.any(Boolean),
		supplierOrder: expect.objectContaining({ orderId: b.id, status: 'needsReview' }),
	});
});

test('node runs name the Base URL: nothing listening, or a Base URL ending in /api', async () => {
	const params = { resource: 'connection', operation: 'getAll', store: rl(shop.storeId), returnAll: true };
	const nobody = 'http://127.0.0.1:9';
	const offline = await runNodeError({ baseUrl: nobody, apiKey: shop.owner.key }, params);
	expect(offline.error.message).toBe(`Could not reach Store Suppliers at ${nobody}`);
	expect(offline.error.description).toContain('without /api');
	const withApi = await runNodeError({ baseUrl: `${world.svc.baseUrl}/api`, apiKey: shop.owner.key }, params);
	expect(withApi.error.message).toBe(`No Store Suppliers API answers at ${world.svc.baseUrl}/api`);
	expect(withApi.error.description).toContain('ends in /api');
	expect(withApi.error.description).not.toContain('Check the IDs');
});

test('optional filters start at "any" on every list and the trigger', () => {
	const lists = [...new StoreSuppliers().description.properties, ...new StoreSuppliersTrigger().description.properties].filter((p) => p.name === 'filters');
	expect(lists.length).toBeGreaterThanOrEqual(4);
	for (const filters of lists) {
		for (const option of (filters.options ?? []) as INodeProperties[]) {
			if (option.type !== 'options' || option.typeOptions?.loadOptionsMethod) continue;
			expect([option.name, option.default]).toEqual([option.name, '']);
			expect(option.options).toContainEqual({ name: 'Any', value: '' });
		}
	}
});

leakScanTest();
