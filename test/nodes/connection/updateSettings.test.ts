/** Connection › Update Settings. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile({ testConnection: true });

test('takes JSON text or an object, and refuses text that is not JSON before any request', async () => {
  const asText = await runNode(
    creds(),
    params({ operation: 'updateSettings', connection: rl(s.shop.testConnId), settings: '{"shippingSpeed":"standard","orderNotePrefix":"n8n"}' }),
  );
  expectSent(
    asText.rec.last(),
    { method: 'PUT', path: `${base()}/${s.shop.testConnId}/settings`, body: { settings: { shippingSpeed: 'standard', orderNotePrefix: 'n8n' } }, status: 200 },
    creds(),
  );
  expect(asText.json[0].settings).toEqual({ shippingSpeed: 'standard', orderNotePrefix: 'n8n' });
  expectPaired(asText.out, [0]);
  const asObject = await runNode(creds(), params({ operation: 'updateSettings', connection: rl(s.shop.testConnId), settings: { shippingSpeed: 'express' } }));
  expect(asObject.rec.last().body).toEqual({ settings: { shippingSpeed: 'express' } });
  const bad = await runNodeError(creds(), params({ operation: 'updateSettings', connection: rl(s.shop.testConnId), settings: '{nope' }));
  expect(bad.error.name).toBe('NodeOperationError');
  expect(bad.error.message).toBe('Settings is not valid JSON');
  expect(bad.rec.requests).toHaveLength(0);
  const invalid = await runNodeError(
    creds(),
    params({ operation: 'updateSettings', connection: rl(s.shop.testConnId), settings: '{"shippingSpeed":"teleport"}' }),
  );
  expect(invalid.error.message).toMatch(/\[validationFailed\]$/);
  expect(invalid.error.description).toContain('shippingSpeed');
});

test("Continue On Fail: settings the supplier's schema refuses are an error item; the other item's are stored", async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({
      operation: 'updateSettings',
      connection: rl(s.shop.testConnId),
      settings: (i: number) => ['{"shippingSpeed":"teleport"}', '{"shippingSpeed":"express"}'][i],
    }),
    2,
  );
  expect(rec.requests.map((r) => r.status)).toEqual([400, 200]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[validationFailed\]$/)));
  expect(out[1]).toMatchObject({ json: { settings: { shippingSpeed: 'express' } }, pairedItem: { item: 1 } });
});

leakScanTest(s);
