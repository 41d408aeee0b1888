/**
 * The service's own pause messages are never passed through the cleaner meant for suppliers' words (issue 53, point
 * 9): a SKU with digits and dashes, an amount and a date survive in the message a person reads; a supplier's words
 * are still cleaned. Over real HTTP with the sandbox supplier.
 */
import { leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { submit, type Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'service-words', sandbox });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
});

/** A store whose product, sold under `sku`, is linked by hand to a sandbox variant. */
async function shopSelling(sku: string): Promise<Shop & { stock: number }> {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const storeId = (await svc.call('POST', '/api/stores', { key: owner.key, body: { name: 'Words store', currency: 'USD' } })).body.result.id;
  const account = await sandbox.account(10_000_000);
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: account.liveKey } },
  });
  const items = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=11')).body.items;
  const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 1 && x.variants[0].stock < 1000);
  const product = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: owner.key,
    body: { title: p.title, variants: [{ sku, title: 'One', priceMinor: 9999, currency: 'USD', stock: 100000 }] },
  });
  const variantId = product.body.result.variants[0].id;
  const link = await svc.call('POST', `/api/store-suppliers/${storeId}/links`, {
    key: owner.key,
    body: {
      productId: product.body.result.id,
      connectionId: conn.body.result.id,
      supplierProductId: p.id,
      variants: [{ storeVariantId: variantId, supplierVariantId: p.variants[0].id }],
      sync: { price: false },
    },
  });
  expect(link.status).toBe(201);
  return {
    owner,
    storeId,
    connId: conn.body.result.id,
    account,
    stock: p.variants[0].stock,
    products: [
      { productId: product.body.result.id, variantId, supplierVariantId: p.variants[0].id, supplierProductId: p.id, costMinor: p.variants[0].costMinor },
    ],
  };
}

test("a pause in the service's own words keeps the SKU (digits and dashes) and the figures whole", async () => {
  const sku = 'TEE-2026-12-01-0042-XL';
  const shop = await shopSelling(sku);
  const body = {
    items: [{ productId: shop.products[0].productId, variantId: shop.products[0].variantId, quantity: 5000 }],
    destination: { name: 'Ada Lovelace', line1: '12 Analytical Street', city: 'Springfield', postalCode: '62701', country: 'US' },
    paymentMethod: 'manual',
  };
  const order = (await svc.call('POST', `/api/store-orders/${shop.storeId}`, { key: shop.owner.key, body })).body.result;
  const res = await submit(svc, shop, order.id);
  expect(res.status).toBe(200);
  const so = res.body.result;
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'variantUnavailable' });
  expect(so.reviewMessage).toBe(`The supplier has ${shop.stock} of variant ${shop.products[0].supplierVariantId} (${sku}); the order needs 5000.`);
});

leakScanTest();
