/** Connection › Update Automation. */
import type { IDataObject } from 'n8n-workflow';

import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile({ testConnection: true });
const automation = (json: IDataObject) => json.automation as IDataObject;

test("sends only the fields given, in the service's shape", async () => {
  const { json, out, rec } = await runNode(
    creds(),
    params({
      operation: 'updateAutomation',
      connection: rl(s.shop.testConnId),
      updateFields: { level: 'automatic', automaticPayment: true, costLimitMinor: 5000, costLimitCurrency: 'usd', excludedCountries: 'fr, de' },
    }),
  );
  expectSent(
    rec.last(),
    {
      method: 'PUT',
      path: `${base()}/${s.shop.testConnId}/automation`,
      body: { level: 'automatic', automaticPayment: true, costLimit: { amountMinor: 5000, currency: 'USD' }, excludedCountries: ['FR', 'DE'] },
      status: 200,
    },
    creds(),
  );
  expect(automation(json[0])).toMatchObject({
    level: 'automatic',
    automaticPayment: true,
    costLimit: { amountMinor: 5000, currency: 'USD' },
    allowUnpaidOrders: false,
  });
  expect([...(automation(json[0]).excludedCountries as string[])].sort()).toEqual(['DE', 'FR']);
  expectPaired(out, [0]);

  const cleared = await runNode(
    creds(),
    params({ operation: 'updateAutomation', connection: rl(s.shop.testConnId), updateFields: { removeCostLimit: true, costLimitMinor: 1 } }),
  );
  expect(cleared.rec.last().body).toEqual({ costLimit: null });
  expect(automation(cleared.json[0]).costLimit).toBeNull();

  const empty = await runNodeError(creds(), params({ operation: 'updateAutomation', connection: rl(s.shop.testConnId), updateFields: {} }));
  expect(empty.error.message).toBe('Add at least one field to update');
  expect(empty.rec.requests).toHaveLength(0);
});

test('sets the shipping-method rule: cheapest, fastest, or a named service', async () => {
  const named = await runNode(
    creds(),
    params({
      operation: 'updateAutomation',
      connection: rl(s.shop.testConnId),
      updateFields: { shippingMethod: 'named', shippingService: ' CAINIAO_STANDARD ' },
    }),
  );
  expectSent(
    named.rec.last(),
    { method: 'PUT', path: `${base()}/${s.shop.testConnId}/automation`, body: { shippingMethod: { rule: 'named', service: 'CAINIAO_STANDARD' } }, status: 200 },
    creds(),
  );
  expect(automation(named.json[0]).shippingMethod).toEqual({ rule: 'named', service: 'CAINIAO_STANDARD' });

  const fastest = await runNode(
    creds(),
    params({
      operation: 'updateAutomation',
      connection: rl(s.shop.testConnId),
      updateFields: { shippingMethod: 'fastest', shippingService: 'ignored without named' },
    }),
  );
  expect(fastest.rec.last().body).toEqual({ shippingMethod: { rule: 'fastest' } });
  expect(automation(fastest.json[0]).shippingMethod).toEqual({ rule: 'fastest' });

  const cheapest = await runNode(
    creds(),
    params({ operation: 'updateAutomation', connection: rl(s.shop.testConnId), updateFields: { shippingMethod: 'cheapest', level: 'manual' } }),
  );
  expect(cheapest.rec.last().body).toEqual({ level: 'manual', shippingMethod: { rule: 'cheapest' } });
  expect(automation(cheapest.json[0]).shippingMethod).toEqual({ rule: 'cheapest' });

  const noService = await runNodeError(
    creds(),
    params({ operation: 'updateAutomation', connection: rl(s.shop.testConnId), updateFields: { shippingMethod: 'named', shippingService: '  ' } }),
  );
  expect(noService.error.message).toBe('Shipping Service is required when Shipping Method is Named Service');
  expect(noService.rec.requests).toHaveLength(0);
});

test('Continue On Fail: an item the node refuses is an error item, before any request of its own; the other item is sent', async () => {
  const updateFields = (i: number) =>
    [
      { shippingMethod: 'cheapest', shippingService: '' },
      { shippingMethod: 'named', shippingService: ' ' },
    ][i];
  const { out, rec } = await runEachItem(creds(), params({ operation: 'updateAutomation', connection: rl(s.shop.testConnId), updateFields }), 2);
  expect(rec.requests.map((r) => r.body)).toEqual([{ shippingMethod: { rule: 'cheapest' } }]);
  expect(out[0]).toMatchObject({ json: { automation: { shippingMethod: { rule: 'cheapest' } } }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, 'Shipping Service is required when Shipping Method is Named Service'));
});

test('sets the reroute rule whole: the reasons chosen and the cost ceiling; the defaults before; no reason stops rerouting', async () => {
  const before = await s.world.svc.call('GET', base(), { key: s.shop.owner.key });
  const listed = before.body.result.items ?? before.body.result;
  expect(listed.find((c: { id: string }) => c.id === s.shop.testConnId).automation.reroute).toEqual({
    reasons: ['variantUnavailable', 'destinationUnsupported', 'costAboveLimit'],
    maxCostIncreasePercent: 10,
  });

  const rule = (r: IDataObject) => params({ operation: 'updateAutomation', connection: rl(s.shop.testConnId), updateFields: { reroute: { rule: r } } });
  const set = await runNode(creds(), rule({ reasons: ['variantUnavailable', 'supplierRefused', 'insufficientBalance'], maxCostIncreasePercent: 25 }));
  expectSent(
    set.rec.last(),
    {
      method: 'PUT',
      path: `${base()}/${s.shop.testConnId}/automation`,
      body: { reroute: { reasons: ['variantUnavailable', 'supplierRefused', 'insufficientBalance'], maxCostIncreasePercent: 25 } },
      status: 200,
    },
    creds(),
  );
  expect(automation(set.json[0]).reroute).toEqual({ reasons: ['variantUnavailable', 'supplierRefused', 'insufficientBalance'], maxCostIncreasePercent: 25 });
  expect(automation(set.json[0]).level).toBeDefined();

  const none = await runNode(creds(), rule({ reasons: [], maxCostIncreasePercent: 0 }));
  expect(none.rec.last().body).toEqual({ reroute: { reasons: [], maxCostIncreasePercent: 0 } });
  expect(automation(none.json[0]).reroute).toEqual({ reasons: [], maxCostIncreasePercent: 0 });
  expectPaired(none.out, [0]);
});

leakScanTest(s);
