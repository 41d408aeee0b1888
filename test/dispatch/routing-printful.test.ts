/**
 * Routing to a Printful alternate (issues 42 and 45): a part whose primary is the sandbox supplier and whose alternate
 * is a Printful connection, under the store's `lowestLandedCost` rule. Printful's live quote (its variant price and
 * `/shipping/rates`) is the lower landed cost, so the part goes there before anything is created: Printful's own
 * records (the Printful-format server's) hold exactly one draft, asked for once; the sandbox holds none.
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
    label: 'routing-printful',
    sandbox,
    env: { PRINTFUL_API_BASE_URL: printful.baseUrl, DISPATCH_RETRY_BASE_SECONDS: '1', JOB_SUPERVISE_SECONDS: '1' },
  });
});
afterAll(async () => {
  await svc?.stop();
  await printful?.close();
  await sandbox?.close();
});

test('lowestLandedCost with a Printful alternate: Printful, the cheaper, takes the part before any create; it holds one draft, the sandbox none', async () => {
  const shop = await openShop(svc, sandbox, { page: 10, products: 1, automation: { level: 'automatic', allowUnpaidOrders: true } });
  const pf = await connectPrintful(svc, printful, shop.owner, shop.storeId);
  const [variant] = await freshProducts(printful, 1);
  // Printful at half the primary's cost; the sandbox then asks ten times its recorded cost.
  const cents = Math.max(1, Math.round(shop.products[0].costMinor * 0.5));
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
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { costMinor: shop.products[0].costMinor * 10 });
  expect(
    (await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/routing`, { key: shop.owner.key, body: { routing: { rule: 'lowestLandedCost' } } })).status,
  ).toBe(200);

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
    'the part routed to Printful and sent',
  );

  expect(first).toMatchObject({ integrationId: shop.connId, status: 'cancelled' });
  const routed = first.events.find((e: any) => e.type === 'routed');
  expect(routed.details).toMatchObject({ rule: 'lowestLandedCost', connectionId: pf.connId });
  const quoted = Object.fromEntries(routed.details.candidates.map((c: any) => [c.connectionId, c]));
  expect(quoted[pf.connId].itemsMinor).toBe(cents);
  // Printful quoted with its shipping (`/shipping/rates`, the rule's cheapest service), never as free.
  expect(quoted[pf.connId]).toMatchObject({ shippingService: 'STANDARD', shippingMinor: 499, totalMinor: cents + 499 });
  expect(quoted[pf.connId].storeTotalMinor).toBeLessThan(quoted[shop.connId].storeTotalMinor);
  expect(second).toMatchObject({ integrationId: pf.connId, supplierKey: 'printful', status: 'submitted', supplierStatus: 'draft' });
  // The landed cost at confirmation is the quote that chose it, shipping included.
  expect(second.landedCosts.find((l: any) => l.stage === 'confirmation')).toMatchObject({ itemsMinor: cents, shippingMinor: 499, totalMinor: cents + 499 });

  // The suppliers' own records: nothing ever reached the sandbox; Printful holds exactly one draft, made once.
  expect((await received(sandbox)).count(first.supplierOrderNumber)).toBe(0);
  const all = await printfulControl(printful, 'GET', '/orders');
  expect(all.filter((o: any) => o.storeId === pf.storeIds[0])).toHaveLength(1);
  const held = await printfulOrdersAt(printful, second.supplierOrderNumber);
  expect(held.map((o: any) => ({ id: String(o.id), status: o.status, createCalls: o.createCalls, confirms: o.confirms }))).toEqual([
    { id: second.supplierOrderId, status: 'draft', createCalls: 1, confirms: 0 },
  ]);
});

test('a Printful backup whose shipping cannot be quoted (no service to the country) is no candidate, with why, however cheap its items: the part stays', async () => {
  const shop = await openShop(svc, sandbox, { page: 12, products: 1, automation: { level: 'automatic', allowUnpaidOrders: true } });
  const pf = await connectPrintful(svc, printful, shop.owner, shop.storeId);
  const [variant] = await freshProducts(printful, 1);
  await printfulControl(printful, 'POST', `/variants/${variant.variantId}`, { price: '0.10' });
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
  expect(
    (await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/routing`, { key: shop.owner.key, body: { routing: { rule: 'lowestLandedCost' } } })).status,
  ).toBe(200);
  await printfulControl(printful, 'POST', '/countries/US', { served: false });
  try {
    const order = await placeOrder(svc, shop, { destination: PRINTFUL_US });
    expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
    const [only] = await eventually(
      async () => {
        const sos = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${order.id}`, { key: shop.owner.key })).body.result.items;
        return sos.length === 1 && sos[0].status === 'submitted' ? sos : undefined;
      },
      30000,
      'the part sent to its primary',
    );
    const routed = only.events.find((e: any) => e.type === 'routed').details;
    expect(routed.candidates.map((c: any) => c.connectionId)).toEqual([shop.connId]);
    expect(routed.excluded).toEqual([
      { connectionId: pf.connId, supplierKey: 'printful', why: expect.stringMatching(/^The supplier quotes no shipping to US: /) },
    ]);
    expect((await printfulControl(printful, 'GET', '/orders')).filter((o: any) => o.storeId === pf.storeIds[0])).toHaveLength(0);
  } finally {
    await printfulControl(printful, 'POST', '/countries/US', { served: true });
  }
});
