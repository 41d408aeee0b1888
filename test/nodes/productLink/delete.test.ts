/** Product Link › Delete. */
import { errorItem, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { linkFile } from './setup';

const { s, creds, params, links } = linkFile({ link: true });

test("unlinks (the service answers nothing, 204) and answers { id, deleted }; a link gone is the service's notFound", async () => {
  const deleted = await runNode(creds(), params({ operation: 'delete', linkId: s.shop.linkId }));
  expectSent(deleted.rec.last(), { method: 'DELETE', path: `${links()}/${s.shop.linkId}`, body: undefined, status: 204 }, creds());
  expect(deleted.json).toEqual([{ id: s.shop.linkId, deleted: true }]);
  expect(deleted.out[0].pairedItem).toEqual({ item: 0 });

  const again = await runNodeError(creds(), params({ operation: 'delete', linkId: s.shop.linkId }));
  expect(again.error.message).toMatch(/\[notFound\]$/);
  const each = await runEachItem(creds(), params({ operation: 'delete', linkId: s.shop.linkId }), 1);
  expect(each.out).toEqual([errorItem(0, expect.stringMatching(/\[notFound\]$/))]);
});

leakScanTest(s);
