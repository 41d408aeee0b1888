/** Store Order › Create. */
import type { IDataObject } from 'n8n-workflow';

import { US_ADDRESS } from '../../support/orders';
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile();
const itemsOf = () => ({ item: [{ productId: s.shop.products[0].productId, variantId: s.shop.products[0].variantId, quantity: 2 }] });

test('creates a store order from store products, split into parts (one per supplier connection)', async () => {
	const [p] = s.shop.products;
	const created = await runNode(creds(), params({ operation: 'create', items: itemsOf(), destination: JSON.stringify(US_ADDRESS), paymentMethod: 'manual', contractModel: 'standard' }));
	expectSent(created.rec.last(), {
		method: 'POST',
		path: orders(),
		body: { items: [{ productId: p.productId, variantId: p.variantId, quantity: 2 }], destination: US_ADDRESS, paymentMethod: 'manual', contractModel: 'standard' },
		status: 201,
	}, creds());
	const order = created.json[0];
	expect(order).toMatchObject({ status: 'pending', paymentMethod: 'manual' });
	expect((order.fulfilmentGroups as IDataObject[]).map((g) => g.groupKey)).toEqual([`supplier:${s.shop.connId}`]);
	expectPaired(created.out, [0]);
});

test('no item is refused before any request', async () => {
	const bad = await runNodeError(creds(), params({ operation: 'create', items: { item: [] }, destination: '{}' }));
	expect(bad.error.message).toBe('Add at least one item');
	expect(bad.rec.requests).toHaveLength(0);
});

test('Continue On Fail: a destination the service refuses is an error item paired with it; the other item is created', async () => {
	const destination = (i: number) => JSON.stringify([{ ...US_ADDRESS, country: 'USA' }, US_ADDRESS][i]);
	const { out, rec } = await runEachItem(creds(), params({ operation: 'create', items: itemsOf(), destination, paymentMethod: 'manual', contractModel: 'standard' }), 2);
	expect(rec.requests.map((r) => r.status)).toEqual([400, 201]);
	expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[validationFailed\]$/)));
	expect(out[1]).toMatchObject({ json: { status: 'pending' }, pairedItem: { item: 1 } });
});

leakScanTest(s);
