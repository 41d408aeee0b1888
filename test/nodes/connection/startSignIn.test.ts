/** Connection › Start Sign-In. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test('answers the address of the sign-in at the service, for a person to open', async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'startSignIn', supplierKey: 'sandbox-signin', mode: 'live' }));
  expectSent(rec.last(), { method: 'POST', path: `${base()}/oauth/start`, body: { supplierKey: 'sandbox-signin', mode: 'live' } }, creds());
  expect(json[0]).toMatchObject({ authorizationUrl: expect.stringContaining('/console#connect/'), state: expect.any(String), expiresAt: expect.any(String) });
  expectPaired(out, [0]);
});

test('Continue On Fail: a supplier without sign-in is an error item paired with it', async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({ operation: 'startSignIn', supplierKey: (i: number) => ['sandbox', 'sandbox-signin'][i], mode: 'live' }),
    2,
  );
  expect(rec.requests[0].status).toBeGreaterThanOrEqual(400);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[\w+\]$/)));
  expect(out[1]).toMatchObject({ json: { authorizationUrl: expect.any(String) }, pairedItem: { item: 1 } });
});

leakScanTest(s);
