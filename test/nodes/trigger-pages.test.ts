/** The trigger reads every page of the orders waiting for review before it emits anything. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { StoreSuppliersTrigger } from '../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { eventually, leakScanTest } from '../support/harness';
import { openShop, placeOrder, Shop, submit } from '../support/orders';
import { pollContext, rl } from './support/context';
import { credentialsOf, startWorld, World } from './support/world';

let world: World;
let shop: Shop;
const PAUSED = 103;

beforeAll(async () => {
	world = await startWorld('node-trigger-pages');
	shop = await openShop(world.svc, world.sandbox, { balanceMinor: 0, page: 12, products: 3 });
	// More paused orders than one page holds (100), spread over three products for the supplier's stock.
	let next = 0;
	const worker = async () => {
		while (next < PAUSED) {
			const n = next++;
			const order = await placeOrder(world.svc, shop, { productIndex: n % 3 });
			const res = await submit(world.svc, shop, order.id, { payNow: true });
			if (res.status >= 300) throw new Error(`order ${n}: submit answered ${res.status} ${res.text}`);
		}
	};
	await Promise.all([worker(), worker(), worker(), worker()]);
	// Each answer may come while the dispatch job is between steps; wait until every one has paused.
	await eventually(async () => {
		const res = await world.svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?needsReview=true&pageSize=1`, { key: shop.owner.key });
		return res.body.result.pagination.totalCount === PAUSED ? true : undefined;
	}, 60000, `${PAUSED} orders to wait for review`);
}, 180000);
afterAll(async () => {
	await world.stop();
});

test('a poll follows nextCursor through every page of needsReview=true, then emits every waiting order once', async () => {
	const state: IDataObject = {};
	const p = pollContext({
		credentials: credentialsOf(world.svc, shop.owner.key),
		parameters: { store: rl(shop.storeId), firstActivation: 'emitWaiting', filters: {} },
		staticData: state,
	});
	const out = (await new StoreSuppliersTrigger().poll!.call(p.ctx)) as INodeExecutionData[][];
	expect(p.rec.requests).toHaveLength(2);
	expect(p.rec.requests.map((r) => r.query.pageSize)).toEqual(['100', '100']);
	expect(p.rec.requests.every((r) => r.query.needsReview === 'true')).toBe(true);
	expect(p.rec.requests[1].query.cursor).toEqual(expect.any(String));
	const ids = out[0].map((i) => i.json._id);
	expect(ids).toHaveLength(PAUSED);
	expect(new Set(ids).size).toBe(PAUSED);
	expect(state.keys as string[]).toHaveLength(PAUSED);

	const again = pollContext({
		credentials: credentialsOf(world.svc, shop.owner.key),
		parameters: { store: rl(shop.storeId), firstActivation: 'emitWaiting', filters: {} },
		staticData: state,
	});
	expect(await new StoreSuppliersTrigger().poll!.call(again.ctx)).toBeNull();
	expect(again.rec.requests).toHaveLength(2);
});

leakScanTest();
