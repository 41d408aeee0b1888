/** Supplier Order operations against a real service and the real sandbox supplier. */

import { createStore, leakScanTest, newDeveloper } from '../support/harness';
import { groupOf, openShop, placeOrder, Shop, submit } from '../support/orders';
import { rl } from './support/context';
import { credentialsOf, pausedOrder, runNode, runNodeError, startWorld, supplierOrderWhen, World } from './support/world';

let world: World;
let poor: Shop; // sandbox balance 0: paying fails with insufficientBalance
let rich: Shop;
let limited: Shop; // a cost limit of 1 cent: every order stops with costAboveLimit before anything is sent

beforeAll(async () => {
	world = await startWorld('node-supplier-orders');
	[poor, rich, limited] = await Promise.all([
		openShop(world.svc, world.sandbox, { balanceMinor: 0, page: 2 }),
		openShop(world.svc, world.sandbox, { page: 3 }),
		openShop(world.svc, world.sandbox, { page: 13, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } }),
	]);
}, 120000);
afterAll(async () => {
	await world.stop();
});

const creds = (shop: Shop) => credentialsOf(world.svc, shop.owner.key);
const base = (shop: Shop) => `/api/store-suppliers/${shop.storeId}`;
const topUp = (shop: Shop, balanceMinor: number) =>
	world.sandbox.control('POST', `/accounts/${shop.account.accountId}/balance`, { balanceMinor });
const submitParams = (shop: Shop, orderId: string, options: Record<string, unknown>) => ({
	resource: 'supplierOrder',
	operation: 'submit',
	store: rl(shop.storeId, 'list'),
	orderId,
	connection: rl(shop.connId),
	options,
});

test('submit sends the part with payNow; a paused answer is a NodeOperationError naming reviewReason and reviewMessage', async () => {
	const order = await placeOrder(world.svc, limited);
	const { error, rec } = await runNodeError(creds(limited), submitParams(limited, order.id, { payNow: true }));
	expect(rec.requests).toHaveLength(1);
	expect(rec.last()).toMatchObject({
		method: 'POST',
		path: `${base(limited)}/orders/${order.id}/groups/${encodeURIComponent(groupOf(limited))}/submit`,
		query: {},
		body: { payNow: true },
		status: 200,
	});
	expect(rec.last().headers['X-API-Key']).toBe(limited.owner.key);
	expect(error.name).toBe('NodeOperationError');
	const so = error.context.supplierOrder;
	expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit', retryable: false, orderId: order.id });
	expect(so.reviewMessage).toEqual(expect.any(String));
	expect(error.message).toBe(`Supplier order paused for review: costAboveLimit: ${so.reviewMessage}`);
	expect(error.description).toContain('reviewReason: costAboveLimit');
	expect(error.description).toContain(`reviewMessage: ${so.reviewMessage}`);
	expect(error.description).toContain('Accept Cost');
	expect(error.context.itemIndex).toBe(0);
});

test('submit of a part whose order already paused with insufficientBalance answers that order: the same error', async () => {
	const paused = await pausedOrder(world.svc, poor);
	const { error, rec } = await runNodeError(creds(poor), submitParams(poor, paused.orderId, { payNow: true }));
	expect(rec.last().body).toEqual({ payNow: true });
	expect(error.name).toBe('NodeOperationError');
	expect(error.message).toContain('insufficientBalance');
	expect(error.message).toContain(paused.reviewMessage);
	expect(error.context.supplierOrder).toMatchObject({ _id: paused._id, reviewReason: 'insufficientBalance' });
	expect(error.description).toContain('Top up the balance');
});

test('with Continue On Fail, a paused order gives { error: message, reviewReason, retryable, supplierOrder } paired with its item, and the other items go on', async () => {
	// a: a part already paused for insufficientBalance; b: a new order, sent without payNow; c: a bad id.
	const [a, b] = await Promise.all([pausedOrder(world.svc, poor), placeOrder(world.svc, poor)]);
	const { out, rec } = await runNode(
		creds(poor),
		{
			resource: 'supplierOrder',
			operation: 'submit',
			store: rl(poor.storeId),
			orderId: (i: number) => [a.orderId, b.id, 'not-a-uuid'][i],
			connection: rl(poor.connId),
			options: (i: number) => ({ payNow: i !== 1 }),
		},
		{ items: [{ json: {} }, { json: {} }, { json: {} }], continueOnFail: true },
	);
	expect(rec.requests.map((r) => r.body)).toEqual([{ payNow: true }, { payNow: false }, { payNow: true }]);
	expect(out).toHaveLength(3);
	expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	// n8n's convention: `error` is the message string; the pause's reason, retryable and order beside it.
	expect(out[0].json).toEqual({
		error: expect.stringContaining('insufficientBalance'),
		reviewReason: 'insufficientBalance',
		retryable: a.retryable,
		supplierOrder: expect.objectContaining({ _id: a._id, status: 'needsReview', reviewReason: 'insufficientBalance' }),
	});
	// With payNow off (and no automatic payment) the order is created at the supplier and waits to be paid.
	expect(out[1].json).toMatchObject({ orderId: b.id, status: 'submitted', payment: { status: 'unpaid' } });
	// A bad id is the service's validation error, code and message, and no supplier order.
	expect(out[2].json).toEqual({ error: expect.stringContaining('[validationFailed]') });
	expect(rec.requests[2].status).toBe(400);
});

test('retry: paused again is an error; with Accept Cost the order goes on (acceptCost sent and recorded)', async () => {
	const order = await placeOrder(world.svc, limited);
	const so = (await submit(world.svc, limited, order.id, { payNow: true })).body.result;
	expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
	const params = { resource: 'supplierOrder', operation: 'retry', store: rl(limited.storeId), supplierOrderId: so._id };

	const again = await runNodeError(creds(limited), { ...params, options: {} });
	expect(again.rec.last()).toMatchObject({ method: 'POST', path: `${base(limited)}/orders/${so._id}/retry`, body: {} });
	expect(again.error.name).toBe('NodeOperationError');
	expect(again.error.context.supplierOrder).toMatchObject({ _id: so._id, status: 'needsReview', reviewReason: 'costAboveLimit' });

	const accepted = await runNode(creds(limited), { ...params, options: { acceptCost: true } });
	expect(accepted.rec.last().body).toEqual({ acceptCost: true });
	expect(accepted.json).toHaveLength(1);
	expect(accepted.json[0]).toMatchObject({ _id: so._id, reviewReason: null });
	expect(['submitted', 'confirmed']).toContain(accepted.json[0].status);
	expect(accepted.out[0].pairedItem).toEqual({ item: 0 });
	const settled = await supplierOrderWhen(world.svc, limited, so._id, (s) => s.status === 'confirmed', 'the order to be paid');
	expect(settled.events.some((e: any) => e.type === 'retry' && e.details.acceptCost === true)).toBe(true);
});

test('pay: with no balance the order pauses (an error); after a top-up a retry finds it at the supplier and pay pays it', async () => {
	const order = await placeOrder(world.svc, poor);
	const created = (await submit(world.svc, poor, order.id)).body.result;
	expect(created.status).toBe('submitted');
	const params = { resource: 'supplierOrder', store: rl(poor.storeId), supplierOrderId: created._id };

	const paid = await runNodeError(creds(poor), { ...params, operation: 'pay' });
	expect(paid.rec.last()).toMatchObject({ method: 'POST', path: `${base(poor)}/orders/${created._id}/pay`, body: undefined });
	expect(paid.error.name).toBe('NodeOperationError');
	expect(paid.error.message).toContain('insufficientBalance');
	expect(paid.error.context.supplierOrder).toMatchObject({ _id: created._id, status: 'needsReview' });

	await topUp(poor, 1_000_000);
	try {
		const retried = await runNode(creds(poor), { ...params, operation: 'retry', options: {} });
		expect(retried.json[0]).toMatchObject({ _id: created._id, status: 'submitted', reviewReason: null, attempt: created.attempt });
		const done = await runNode(creds(poor), { ...params, operation: 'pay' });
		expect(done.json[0]).toMatchObject({ _id: created._id, status: 'confirmed', payment: { status: 'paid' } });
		expect(done.out[0].pairedItem).toEqual({ item: 0 });
	} finally {
		await topUp(poor, 0);
	}
});

test('pay of a created order with balance answers it confirmed; cancel and get answer the supplier order', async () => {
	const [one, two] = await Promise.all([placeOrder(world.svc, rich), placeOrder(world.svc, rich)]);
	const [s1, s2] = await Promise.all([submit(world.svc, rich, one.id), submit(world.svc, rich, two.id)]);
	const params = { resource: 'supplierOrder', store: rl(rich.storeId) };

	const paid = await runNode(creds(rich), { ...params, operation: 'pay', supplierOrderId: s1.body.result._id });
	expect(paid.json[0]).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });

	const cancelled = await runNode(creds(rich), { ...params, operation: 'cancel', supplierOrderId: s2.body.result._id });
	expect(cancelled.rec.last()).toMatchObject({ method: 'POST', path: `${base(rich)}/orders/${s2.body.result._id}/cancel`, body: undefined });
	expect(cancelled.json[0]).toMatchObject({ _id: s2.body.result._id, status: 'cancelled' });

	const got = await runNode(creds(rich), { ...params, operation: 'get', supplierOrderId: s1.body.result._id });
	expect(got.rec.last()).toMatchObject({ method: 'GET', path: `${base(rich)}/orders/${s1.body.result._id}`, query: {} });
	expect(got.json[0]).toMatchObject({ _id: s1.body.result._id, status: 'confirmed', orderNumber: one.number });
	expect(got.json[0].events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'paid' })]));

	const unknown = await runNodeError(creds(rich), { ...params, operation: 'get', supplierOrderId: '00000000-0000-4000-8000-000000000000' });
	expect(unknown.error.name).toBe('NodeApiError');
	expect(unknown.error.message).toBe('The supplier order was not found. [notFound]');
	expect(unknown.error.httpCode).toBe('404');
	expect(unknown.error.description).toContain('error code notFound');
});

test('fulfil manually hands the part to the store and answers { supplierOrder, part }', async () => {
	const order = await placeOrder(world.svc, rich);
	const { json, rec } = await runNode(creds(rich), {
		resource: 'supplierOrder',
		operation: 'fulfilManually',
		store: rl(rich.storeId),
		orderId: order.id,
		// The part key may also be given whole.
		connection: rl(rich.connId),
	});
	expect(rec.last()).toMatchObject({
		method: 'POST',
		path: `${base(rich)}/orders/${order.id}/groups/${encodeURIComponent(groupOf(rich))}/fulfil-manually`,
	});
	expect(json[0]).toMatchObject({ part: { groupKey: groupOf(rich), fulfilledByStore: true } });
});

test('get many sends the filters as query fields, pages of min(limit, 100), and stops once it has enough', async () => {
	const paused = [];
	for (let i = 0; i < 3; i++) paused.push(await pausedOrder(world.svc, poor));
	const orders = paused.map((p) => ({ id: p.orderId as string }));
	const params = { resource: 'supplierOrder', operation: 'getAll', store: rl(poor.storeId) };

	const filtered = await runNode(creds(poor), {
		...params,
		returnAll: true,
		filters: { needsReview: true, integrationId: poor.connId, contractModel: 'standard', status: 'needsReview', orderId: orders[1].id },
	});
	expect(filtered.rec.requests).toHaveLength(1);
	expect(filtered.rec.last()).toMatchObject({
		method: 'GET',
		path: `${base(poor)}/orders`,
		query: { needsReview: 'true', integrationId: poor.connId, contractModel: 'standard', status: 'needsReview', orderId: orders[1].id, pageSize: '100' },
	});
	expect(filtered.json.map((o) => o._id)).toEqual([paused[1]._id]);

	const limited = await runNode(creds(poor), { ...params, returnAll: false, limit: 2, filters: { needsReview: true } });
	expect(limited.rec.requests).toHaveLength(1);
	expect(limited.rec.last().query).toEqual({ needsReview: 'true', pageSize: '2' });
	expect(limited.json).toHaveLength(2);
	expect(limited.out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);

	const all = await runNode(creds(poor), { ...params, returnAll: true, filters: { needsReview: true } });
	expect(all.json.length).toBeGreaterThanOrEqual(3);
	expect(all.json.every((o) => o.status === 'needsReview')).toBe(true);
	expect(all.json.map((o) => o._id)).toEqual(expect.arrayContaining(paused.map((p) => p._id)));
});

test('a store whose owner plan lacks dropshipping: the service\'s planRequired code and message surface', async () => {
	const owner = await newDeveloper(world.svc, { plan: 'free' });
	const storeId = await createStore(world.svc, owner.key);
	const { error, rec } = await runNodeError(credentialsOf(world.svc, owner.key), {
		resource: 'supplierOrder',
		operation: 'submit',
		store: rl(storeId),
		orderId: '00000000-0000-4000-8000-000000000000',
		connection: rl('00000000-0000-4000-8000-000000000001'),
		options: {},
	});
	expect(rec.last().status).toBe(403);
	expect(error.name).toBe('NodeApiError');
	expect(error.message).toMatch(/\[planRequired\]$/);
	expect(error.httpCode).toBe('403');
	expect(error.description).toContain('Pro or higher');
});

test('a revoked or unknown key is the service\'s 401 with a hint to check the credential', async () => {
	const { error } = await runNodeError(credentialsOf(world.svc, 'ssk_unknown'), {
		resource: 'supplierOrder',
		operation: 'get',
		store: rl(rich.storeId),
		supplierOrderId: '00000000-0000-4000-8000-000000000000',
	});
	expect(error.message).toBe('A valid API key or session is required. [unauthenticated]');
	expect(error.description).toContain('Store Suppliers API credential');
});

leakScanTest();
