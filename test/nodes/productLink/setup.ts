/** The set-up of the product link operations' tests: a shop with three imported (linked) products. */
import { Sandbox, ServiceClient } from '../../support/harness';
import { openShop, Shop } from '../../support/orders';
import { connectTestMode } from '../../support/backup';
import { resourceFile } from '../support/world';

/** A product the store made itself, and a supplier product it may be linked to. */
export async function ownProduct(svc: ServiceClient, sandbox: Sandbox, shop: Shop, sku = 'OWN-1') {
  const own = await svc.call('POST', `/api/store-products/${shop.storeId}`, {
    key: shop.owner.key,
    body: { title: 'Own lamp', variants: [{ sku, title: 'One', priceMinor: 5000, currency: 'USD', stock: 3 }] },
  });
  if (own.status !== 201) throw new Error(own.text);
  const supplierProduct = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=20&page=11')).body.items[0];
  return { product: own.body.result, supplierProduct };
}

/** The own product linked through the service, with the stock sync off (as Create would make it). */
async function ownLink(svc: ServiceClient, sandbox: Sandbox, shop: Shop): Promise<string> {
  const { product, supplierProduct } = await ownProduct(svc, sandbox, shop);
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/links`, {
    key: shop.owner.key,
    body: {
      productId: product.id,
      connectionId: shop.connId,
      supplierProductId: supplierProduct.id,
      variants: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }],
      sync: { stock: false },
    },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.result.id;
}

/** `backup`: a second connection of the shop (the sandbox in test mode) to hold alternates. */
export function linkFile(opts: { link?: boolean; backup?: boolean } = {}) {
  const file = resourceFile('productLink', 'productLink', async (w) => {
    const shop = await openShop(w.svc, w.sandbox, { page: 10, products: 3 });
    const linkId = opts.link ? await ownLink(w.svc, w.sandbox, shop) : '';
    return { ...shop, linkId, backupConnId: opts.backup ? await connectTestMode(w.svc, shop) : '' };
  });
  return { ...file, links: () => `/api/store-suppliers/${file.s.shop.storeId}/links` };
}
