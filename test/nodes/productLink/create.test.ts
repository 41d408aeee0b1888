/** Product Link › Create. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { linkFile, ownProduct } from './setup';

const { s, creds, params, links } = linkFile();

test('links a product the store already has, every store variant to one supplier variant, with the options given', async () => {
	const { product, supplierProduct } = await ownProduct(s.world.svc, s.world.sandbox, s.shop);
	const created = await runNode(
		creds(),
		params({
			operation: 'create',
			connection: rl(s.shop.connId, 'list'),
			productId: product.id,
			supplierProductId: supplierProduct.id,
			variants: { variant: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }] },
			options: { priceRule: { multiplier: '2' }, sync: { stock: false } },
		}),
	);
	expectSent(created.rec.last(), {
		method: 'POST',
		path: links(),
		status: 201,
		body: {
			productId: product.id,
			connectionId: s.shop.connId,
			supplierProductId: supplierProduct.id,
			variants: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }],
			priceRule: { multiplier: '2' },
			sync: { stock: false },
		},
	}, creds());
	expect(created.json[0]).toMatchObject({ productId: product.id, supplierProductId: supplierProduct.id, sync: { stock: false } });
	expectPaired(created.out, [0]);

	// Linked already: the service's answer, as that item's error under Continue On Fail.
	const again = await runEachItem(creds(), params({
		operation: 'create',
		connection: rl(s.shop.connId),
		productId: product.id,
		supplierProductId: supplierProduct.id,
		variants: { variant: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }] },
		options: {},
	}), 1);
	expect(again.rec.last().status).toBeGreaterThanOrEqual(400);
	expect(again.out).toEqual([errorItem(0, expect.stringMatching(/\[\w+\]$/))]);
});

test('no variant mapped is refused before any request', async () => {
	const { error, rec } = await runNodeError(creds(), params({ operation: 'create', connection: rl(s.shop.connId), productId: s.shop.products[0].productId, supplierProductId: 'SBX-P00001', variants: {}, options: {} }));
	expect(error.message).toBe('Map at least one variant');
	expect(rec.requests).toHaveLength(0);
});

leakScanTest(s);
