/** Connection › Replace Credentials. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile({ testConnection: true });

test('sends the new key only; the answer is the connection, without it', async () => {
  const { json, out, rec } = await runNode(
    creds(),
    params({ operation: 'replaceCredentials', connection: rl(s.shop.testConnId), supplierApiKey: s.shop.account.testKey }),
  );
  expectSent(
    rec.last(),
    { method: 'PUT', path: `${base()}/${s.shop.testConnId}`, body: { credentials: { apiKey: s.shop.account.testKey } }, status: 200 },
    creds(),
  );
  expect(json[0]).toMatchObject({ id: s.shop.testConnId, hasCredentials: true });
  expect(JSON.stringify(json[0])).not.toContain(s.shop.account.testKey);
  expectPaired(out, [0]);
});

test('Continue On Fail: an unknown connection is an error item paired with it', async () => {
  const { out } = await runEachItem(
    creds(),
    params({ operation: 'replaceCredentials', connection: (i: number) => rl([MISSING_ID, s.shop.testConnId][i]), supplierApiKey: s.shop.account.testKey }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, 'The connection was not found. [notFound]'));
  expect(out[1]).toMatchObject({ json: { id: s.shop.testConnId }, pairedItem: { item: 1 } });
});

leakScanTest(s);
