/** Connection › Connect. */
import { createStore } from '../../support/harness';
import { rl } from '../support/context';
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test("sends the supplier key, mode, the merchant's key at the supplier and settings; the answer has no credentials", async () => {
  const { json, out, rec } = await runNode(
    creds(),
    params({
      operation: 'connect',
      store: rl(s.shop.storeId, 'list'),
      supplierKey: 'sandbox',
      mode: 'test',
      supplierApiKey: s.shop.account.testKey,
      additionalFields: { settings: '{"shippingSpeed":"express"}' },
    }),
  );
  expectSent(
    rec.last(),
    {
      method: 'POST',
      path: base(),
      body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: s.shop.account.testKey }, settings: { shippingSpeed: 'express' } },
      status: 201,
    },
    creds(),
  );
  expect(json[0]).toMatchObject({ supplierKey: 'sandbox', mode: 'test', enabled: true, hasCredentials: true, settings: { shippingSpeed: 'express' } });
  expect(JSON.stringify(json[0])).not.toContain(s.shop.account.testKey);
  expectPaired(out, [0]);
});

test("a key the supplier refuses: the service's code and message", async () => {
  const { error, rec } = await runNodeError(
    creds(),
    params({ operation: 'connect', supplierKey: 'sandbox', mode: 'live', supplierApiKey: 'sbx_live_nobody', additionalFields: {} }),
  );
  expect(rec.last().body).toEqual({ supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: 'sbx_live_nobody' } });
  expect(error.name).toBe('NodeApiError');
  expect(error.message).toMatch(/\[(credentialsRejected|alreadyConnected)\]$/);
  expect(error.httpCode).toMatch(/^4/);
});

test("a supplier store id (Printful's account-level tokens) goes with the key as storeId; the service answers for Printful", async () => {
  const token = 'pf_account_level_token_for_the_node_test';
  const { error, rec } = await runNodeError(
    creds(),
    params({ operation: 'connect', supplierKey: 'printful', mode: 'live', supplierApiKey: token, additionalFields: { supplierStoreId: ' 10000042 ' } }),
  );
  expect(rec.last().body).toEqual({ supplierKey: 'printful', mode: 'live', credentials: { apiKey: token, storeId: '10000042' } });
  // The tests' Printful is a closed port: the service tried it, and says so without repeating the token.
  expect(error.name).toBe('NodeApiError');
  expect(error.message).not.toContain(token);
});

test('Continue On Fail: a refused key is an error item paired with its item; the next item (another store) connects', async () => {
  const other = await createStore(s.world.svc, s.shop.owner.key, 'Second Store');
  const { out, rec } = await runEachItem(
    creds(),
    params({
      operation: 'connect',
      store: (i: number) => rl([s.shop.storeId, other][i]),
      supplierKey: 'sandbox',
      mode: 'test',
      supplierApiKey: (i: number) => ['sbx_test_nobody', s.shop.account.testKey][i],
      additionalFields: {},
    }),
    2,
  );
  expect(rec.requests.map((r) => [r.path, r.status >= 400])).toEqual([
    [base(), true],
    [`/api/store-suppliers/${other}`, false],
  ]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[(credentialsRejected|alreadyConnected)\]$/)));
  expect(out[1]).toMatchObject({ json: { supplierKey: 'sandbox', mode: 'test' }, pairedItem: { item: 1 } });
});

leakScanTest(s);
