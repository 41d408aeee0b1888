/**
 * A link's alternates (backup supplier variants): what the link routes accept (each checked: the store's live
 * connection other than the link's, a supplier variant that exists, read through the gateway) with 422
 * alternateInvalid naming each field that fails; the view; the hourly sync keeping each alternate's cost and stock
 * (read in its own connection's sync); and the connection's reroute rule with its defaults.
 */
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { createStore, eventually, runCli, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { cjControl, openRerouteShop, RerouteShop } from '../support/reroute';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;
let shop: RerouteShop;

beforeAll(async () => {
  sandbox = await startSandbox();
  fake = await startFakeCj();
  svc = await startService({ label: 'link-alternates', sandbox, env: { CJ_API_BASE_URL: fake.baseUrl } });
  shop = await openRerouteShop(svc, sandbox, fake, { page: 2 });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await sandbox?.close();
});

const linkUrl = () => `/api/store-suppliers/${shop.storeId}/links/${shop.linkId}`;
const getLink = async () =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${shop.products[0].productId}`, { key: shop.owner.key })).body.result.items[0];
const put = (alternates: unknown[]) => svc.call('PUT', linkUrl(), { key: shop.owner.key, body: { alternates } });
const alt = (more: Record<string, string> = {}) => ({
  storeVariantId: shop.products[0].variantId,
  connectionId: shop.cjConnId,
  supplierProductId: shop.cj.pid,
  supplierVariantId: shop.cj.vid,
  ...more,
});

test('the link shows its alternates with cost and stock as the supplier gave them', async () => {
  const link = await getLink();
  expect(link.variants[0].alternates).toEqual([
    {
      connectionId: shop.cjConnId,
      supplierProductId: shop.cj.pid,
      supplierVariantId: shop.cj.vid,
      costMinor: shop.products[0].costMinor,
      currency: 'USD',
      stock: 500,
      available: true,
    },
  ]);
});

test('each alternate is checked: 422 alternateInvalid names every field that fails, and nothing is written', async () => {
  const other = await createStore(svc, shop.owner.key, 'Other store');
  const otherConn = await svc.call('POST', `/api/store-suppliers/${other}`, {
    key: shop.owner.key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: (await sandbox.account(1000)).liveKey } },
  });
  const res = await put([
    alt({ connectionId: shop.connId }),
    alt({ connectionId: otherConn.body.result.id }),
    alt({ supplierVariantId: 'no-such-variant' }),
    alt({ supplierProductId: 'NO-SUCH-PRODUCT' }),
    alt({ storeVariantId: '00000000-0000-4000-8000-000000000000' }),
  ]);
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe('alternateInvalid');
  expect(res.body.error.details.map((d: any) => d.field)).toEqual([
    'body/alternates/0/connectionId',
    'body/alternates/1/connectionId',
    'body/alternates/2/supplierVariantId',
    'body/alternates/3/supplierProductId',
    'body/alternates/4/storeVariantId',
  ]);
  expect((await getLink()).variants[0].alternates).toHaveLength(1);
  // A connection switched off is refused too.
  await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.cjConnId}/enabled`, { key: shop.owner.key, body: { enabled: false } });
  const off = await put([alt()]);
  await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.cjConnId}/enabled`, { key: shop.owner.key, body: { enabled: true } });
  expect([off.status, off.body.error.details[0].message]).toEqual([422, expect.stringContaining('switched off or removed')]);
  // Malformed is 400 from the schema.
  expect((await put([{ storeVariantId: shop.products[0].variantId }])).status).toBe(400);
});

test("the hourly sync keeps each alternate's cost and stock, read in its own connection's sync", async () => {
  await cjControl(fake, 'POST', `/variants/${shop.cj.vid}`, { sellPrice: '123.45', stock: 7 });
  runCli(svc, 'sync-links');
  await eventually(
    async () => {
      const [a] = (await getLink()).variants[0].alternates;
      return a.costMinor === 12345 && a.stock === 7 ? a : undefined;
    },
    60000,
    'the alternate synced',
  );
});

test('the reroute rule: defaults on a connection, changed through the automation, reasons checked', async () => {
  const listed = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result;
  const conn = (listed.items ?? listed).find((c: any) => c.id === shop.cjConnId);
  expect(conn.automation.reroute).toEqual({ reasons: ['variantUnavailable', 'destinationUnsupported', 'costAboveLimit'], maxCostIncreasePercent: 10 });
  const url = `/api/store-suppliers/${shop.storeId}/${shop.cjConnId}/automation`;
  const set = await svc.call('PUT', url, { key: shop.owner.key, body: { reroute: { reasons: ['supplierRefused'], maxCostIncreasePercent: 25 } } });
  expect(set.body.result.automation.reroute).toEqual({ reasons: ['supplierRefused'], maxCostIncreasePercent: 25 });
  expect((await svc.call('PUT', url, { key: shop.owner.key, body: { reroute: { reasons: ['costChanged'], maxCostIncreasePercent: 5 } } })).status).toBe(400);
});
