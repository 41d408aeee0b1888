/** Connection › Get Balance, and how the node runs each item on its own. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test('the account balance at the supplier', async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'getBalance', connection: rl(s.shop.connId) }));
  expectSent(rec.last(), { method: 'GET', path: `${base()}/${s.shop.connId}/balance`, body: undefined, status: 200 }, creds());
  expect(json[0]).toEqual({ amountMinor: 10_000_000, currency: 'USD' });
  expectPaired(out, [0]);
});

test('each item runs on its own: with Continue On Fail a failing item becomes an error item paired with it; without, the run stops at it', async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({ operation: 'getBalance', connection: (i: number) => rl([s.shop.connId, MISSING_ID, s.shop.connId][i]) }),
    3,
  );
  expect(rec.requests.map((r) => r.status)).toEqual([200, 404, 200]);
  expectPaired(out, [0, 1, 2]);
  expect(out[1]).toEqual(errorItem(1, 'The connection was not found. [notFound]'));
  expect(out[0].json).toMatchObject({ currency: 'USD' });

  const stopped = await runNodeError(creds(), params({ operation: 'getBalance', connection: (i: number) => rl([s.shop.connId, MISSING_ID][i]) }), {
    items: [{ json: {} }, { json: {} }],
  });
  expect(stopped.error.name).toBe('NodeApiError');
  expect(stopped.error.context.itemIndex).toBe(1);
});

leakScanTest(s);
