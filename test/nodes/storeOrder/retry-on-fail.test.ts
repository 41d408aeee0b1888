/**
 * Store Order › Create and Confirm under n8n's Retry On Fail (issue 56, item 5): the node sends an Idempotency-Key made
 * from the execution, its run and the item, so when the answer of a create is lost on the way back and n8n runs the
 * node again, the service answers the first result and the order is made once; another execution makes another.
 */
import { US_ADDRESS } from '../../support/orders';
import { leakScanTest, runNode } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile();
const itemsOf = () => ({ item: [{ productId: s.shop.products[0].productId, variantId: s.shop.products[0].variantId, quantity: 1 }] });
const create = () => params({ operation: 'create', items: itemsOf(), destination: JSON.stringify(US_ADDRESS), paymentMethod: 'manual', contractModel: 'standard' });
const orderIds = async (): Promise<string[]> => (await s.world.svc.call('GET', `${orders()}?pageSize=100`, { key: s.shop.owner.key })).body.result.items.map((o: { id: string }) => o.id);

test('a create whose answer was lost is sent again by Retry On Fail with the same key: one order', async () => {
	const before = await orderIds();
	const run = await runNode(creds(), create(), { retryOnFail: { maxTries: 2 }, lose: { path: /^POST \/api\/store-orders\/[^/]+$/, count: 1 } });
	const posts = run.rec.requests.filter((r) => r.method === 'POST');
	expect(posts.map((r) => r.status)).toEqual([201, 201]);
	const keys = posts.map((r) => r.headers['Idempotency-Key']);
	expect(keys[0]).toMatch(/^n8n-/);
	expect(keys[1]).toBe(keys[0]);
	const after = await orderIds();
	const made = after.filter((id) => !before.includes(id));
	expect(made).toEqual([run.json[0].id]);
});

test('another execution is another key: the same order twice is made twice, as asked', async () => {
	const first = await runNode(creds(), create());
	const second = await runNode(creds(), create());
	expect(first.rec.last().headers['Idempotency-Key']).not.toBe(second.rec.last().headers['Idempotency-Key']);
	expect(first.json[0].id).not.toBe(second.json[0].id);
});

leakScanTest(s);
