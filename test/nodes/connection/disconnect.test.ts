/** Connection › Disconnect. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile({ testConnection: true });

test('deletes the credentials and answers what was affected; again, the connection is gone (an error item under Continue On Fail)', async () => {
  const gone = await runNode(creds(), params({ operation: 'disconnect', connection: rl(s.shop.testConnId) }));
  expectSent(gone.rec.last(), { method: 'DELETE', path: `${base()}/${s.shop.testConnId}`, body: undefined, status: 200 }, creds());
  expect(gone.json[0]).toMatchObject({ id: s.shop.testConnId, disconnected: true, impact: expect.any(Object) });
  expectPaired(gone.out, [0]);

  const { out } = await runEachItem(creds(), params({ operation: 'disconnect', connection: (i: number) => rl([s.shop.testConnId, s.shop.testConnId][i]) }), 1);
  expect(out).toEqual([errorItem(0, 'The connection was not found. [notFound]')]);
});

leakScanTest(s);
