/** Product Link › Update. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { linkFile } from './setup';

const { s, creds, params, links } = linkFile({ link: true });

test('changes the price rule and sync switches given; the others keep their values', async () => {
	const updated = await runNode(creds(), params({ operation: 'update', linkId: s.shop.linkId, updateFields: { priceRule: { multiplier: '3', endingMinor: 99 }, sync: { title: true } } }));
	expectSent(updated.rec.last(), { method: 'PUT', path: `${links()}/${s.shop.linkId}`, body: { priceRule: { multiplier: '3', endingMinor: 99 }, sync: { title: true } }, status: 200 }, creds());
	expect(updated.json[0]).toMatchObject({ id: s.shop.linkId, sync: { title: true, stock: false } });
	expectPaired(updated.out, [0]);

	const nothing = await runNodeError(creds(), params({ operation: 'update', linkId: s.shop.linkId, updateFields: {} }));
	expect(nothing.error.message).toBe('Add at least one field to update');
	expect(nothing.rec.requests).toHaveLength(0);
});

test('Continue On Fail: an unknown link is an error item paired with it', async () => {
	const { out } = await runEachItem(creds(), params({ operation: 'update', linkId: (i: number) => [MISSING_ID, s.shop.linkId][i], updateFields: { sync: { price: false } } }), 2);
	expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
	expect(out[1]).toMatchObject({ json: { id: s.shop.linkId, sync: { price: false } }, pairedItem: { item: 1 } });
});

leakScanTest(s);
