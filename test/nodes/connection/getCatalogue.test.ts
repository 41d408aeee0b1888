/** Connection › Get Catalogue. */
import { rl } from '../support/context';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test('one item per supplier the store can connect, each paired with the input item', async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'getCatalogue', store: rl(s.shop.storeId, 'list') }));
  expect(rec.requests).toHaveLength(1);
  expectSent(rec.last(), { method: 'GET', path: `${base()}/catalogue`, body: undefined, status: 200 }, creds());
  expect(json.map((e) => e.key)).toEqual(expect.arrayContaining(['sandbox', 'sandbox-signin']));
  expect(json.find((e) => e.key === 'sandbox')).toMatchObject({ capabilities: { authKind: 'apiKey', balance: true } });
  expect(out.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
});

test("Continue On Fail: a store the key does not reach is an error item of its own; the other item's suppliers come out", async () => {
  const { out, rec } = await runEachItem(creds(), params({ operation: 'getCatalogue', store: (i: number) => rl([MISSING_ID, s.shop.storeId][i]) }), 2);
  expect(rec.requests.map((r) => r.status)).toEqual([404, 200]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out.length).toBeGreaterThan(2);
  expectPaired(
    out.slice(1),
    out.slice(1).map(() => 1),
  );
});

leakScanTest(s);
