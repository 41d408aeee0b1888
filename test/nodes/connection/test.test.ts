/** Connection › Test. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test('checks the connection now and answers it with its recorded health', async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'test', connection: rl(s.shop.connId, 'list') }));
  expectSent(rec.last(), { method: 'POST', path: `${base()}/${s.shop.connId}/test`, body: undefined, status: 200 }, creds());
  expect(json[0]).toMatchObject({ id: s.shop.connId, health: { status: 'healthy' } });
  expectPaired(out, [0]);
});

test('Continue On Fail: an unknown connection is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'test', connection: (i: number) => rl([s.shop.connId, MISSING_ID][i]) }), 2);
  expect(out[0]).toMatchObject({ json: { id: s.shop.connId }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, 'The connection was not found. [notFound]'));
});

leakScanTest(s);
