/** Connection › Enable or Disable. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile({ testConnection: true });

test('switches the connection off and on', async () => {
  const off = await runNode(creds(), params({ operation: 'setEnabled', connection: rl(s.shop.testConnId), enabled: false }));
  expectSent(off.rec.last(), { method: 'PUT', path: `${base()}/${s.shop.testConnId}/enabled`, body: { enabled: false }, status: 200 }, creds());
  expect(off.json[0]).toMatchObject({ enabled: false });
  expectPaired(off.out, [0]);
  const on = await runNode(creds(), params({ operation: 'setEnabled', connection: rl(s.shop.testConnId), enabled: true }));
  expect(on.rec.last().body).toEqual({ enabled: true });
  expect(on.json[0]).toMatchObject({ enabled: true });
});

test('Continue On Fail: an unknown connection is an error item paired with it', async () => {
  const { out } = await runEachItem(
    creds(),
    params({ operation: 'setEnabled', connection: (i: number) => rl([s.shop.testConnId, MISSING_ID][i]), enabled: true }),
    2,
  );
  expect(out[0]).toMatchObject({ json: { id: s.shop.testConnId, enabled: true }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, 'The connection was not found. [notFound]'));
});

leakScanTest(s);
