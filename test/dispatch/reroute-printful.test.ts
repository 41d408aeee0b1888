/**
 * Rerouting to a Printful alternate: a part on the sandbox supplier, paused as variantUnavailable, goes to a Printful
 * connection of the same store. Printful's own records (the Printful-format server's) hold exactly one order, a draft
 * under the alternate's number, asked for once; the sandbox holds none.
 */
import { RunningFakePrintful, startFakePrintful } from '../fakes/printful';
import { eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received } from '../support/orders';
import { connectPrintful, freshProducts, PRINTFUL_US, printfulControl, printfulOrdersAt } from '../support/printful';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let printful: RunningFakePrintful;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  printful = await startFakePrintful({ requestsPerMinute: 100_000 });
  svc = await startService({
    label: 'reroute-printful',
    sandbox,
    env: { PRINTFUL_API_BASE_URL: printful.baseUrl, DISPATCH_RETRY_BASE_SECONDS: '1', JOB_SUPERVISE_SECONDS: '1' },
  });
});
afterAll(async () => {
  await svc?.stop();
  await printful?.close();
  await sandbox?.close();
});

test('a sandbox part paused as variantUnavailable goes to the Printful alternate: Printful holds one draft, the sandbox none', async () => {
  const shop = await openShop(svc, sandbox, { page: 9, products: 1, automation: { level: 'automatic', allowUnpaidOrders: true } });
  const pf = await connectPrintful(svc, printful, shop.owner, shop.storeId);
  const [variant] = await freshProducts(printful, 1);
  // Priced 5% above the primary, within the default rule's 10%.
  const cents = Math.round(shop.products[0].costMinor * 1.05);
  await printfulControl(printful, 'POST', `/variants/${variant.variantId}`, { price: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` });
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${shop.products[0].productId}`, { key: shop.owner.key });
  const set = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${links.body.result.items[0].id}`, {
    key: shop.owner.key,
    body: {
      alternates: [
        { storeVariantId: shop.products[0].variantId, connectionId: pf.connId, supplierProductId: variant.productId, supplierVariantId: variant.variantId },
      ],
    },
  });
  expect(set.status).toBe(200);

  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });
  const order = await placeOrder(svc, shop, { destination: PRINTFUL_US });
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);

  const parts = async () =>
    (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${order.id}`, { key: shop.owner.key })).body.result.items;
  const [first, second] = await eventually(
    async () => {
      const sos = await parts();
      return sos.length === 2 && sos.some((s: any) => s.supplierKey === 'printful' && s.status === 'submitted')
        ? sos.sort((a: any, b: any) => a.createdAt.localeCompare(b.createdAt))
        : undefined;
    },
    30000,
    'the part rerouted to Printful and sent',
  );

  expect(first).toMatchObject({ integrationId: shop.connId, status: 'cancelled' });
  const rerouted = first.events.find((e: any) => e.type === 'rerouted');
  expect(rerouted.details).toMatchObject({ reason: 'variantUnavailable', by: 'rule', to: { connectionId: pf.connId, supplierOrderId: second._id } });
  expect(rerouted.details.costDifferenceMinor).toBe(cents - shop.products[0].costMinor);
  expect(second).toMatchObject({
    integrationId: pf.connId,
    supplierKey: 'printful',
    status: 'submitted',
    supplierStatus: 'draft',
    payment: { status: 'unpaid' },
  });

  // The suppliers' own records: nothing at the sandbox; at Printful exactly one order, the alternate's draft.
  expect((await received(sandbox)).count(first.supplierOrderNumber)).toBe(0);
  const all = await printfulControl(printful, 'GET', '/orders');
  expect(all.filter((o: any) => o.storeId === pf.storeIds[0])).toHaveLength(1);
  const held = await printfulOrdersAt(printful, second.supplierOrderNumber);
  expect(
    held.map((o: any) => ({
      id: String(o.id),
      status: o.status,
      createCalls: o.createCalls,
      confirms: o.confirms,
      items: o.items.map((i: any) => [String(i.sync_variant_id), i.quantity]),
    })),
  ).toEqual([{ id: second.supplierOrderId, status: 'draft', createCalls: 1, confirms: 0, items: [[variant.variantId, 1]] }]);
  expect(held[0].recipient).toMatchObject({ country_code: 'US', state_code: 'IL', zip: '62701' });
});
