/** Product Link › Sync. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { linkFile } from './setup';

const { s, creds, params, links } = linkFile({ link: true });

test('syncs the link now, within its switches, and answers it', async () => {
  const synced = await runNode(creds(), params({ operation: 'sync', linkId: s.shop.linkId }));
  expectSent(synced.rec.last(), { method: 'POST', path: `${links()}/${s.shop.linkId}/sync`, body: undefined, status: 200 }, creds());
  expect(synced.json[0]).toMatchObject({ id: s.shop.linkId, lastSyncAt: expect.any(String) });
  expectPaired(synced.out, [0]);
});

test('Continue On Fail: an unknown link is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'sync', linkId: (i: number) => [s.shop.linkId, MISSING_ID][i] }), 2);
  expect(out[0]).toMatchObject({ json: { id: s.shop.linkId }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
