/**
 * Backup suppliers in the surfaces' tests (node, clients, console): a second connection of a shop, the sandbox in
 * test mode (a store keeps one live connection per supplier), to hold a link's alternates with the sandbox alone.
 */
import { ServiceClient } from './harness';
import { Shop } from './orders';

/** A second connection of the shop, in test mode. */
export async function connectTestMode(svc: ServiceClient, shop: Shop): Promise<string> {
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
    key: shop.owner.key,
    body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: shop.account.testKey } },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.result.id;
}

/** The shop's first product's link, with the same supplier variant on `backupConnId` as its one alternate. */
export async function linkWithBackup(svc: ServiceClient, shop: Shop, backupConnId: string): Promise<string> {
  const p = shop.products[0];
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${p.productId}`, { key: shop.owner.key });
  const linkId = links.body.result.items[0].id;
  const set = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, {
    key: shop.owner.key,
    body: {
      alternates: [{ storeVariantId: p.variantId, connectionId: backupConnId, supplierProductId: p.supplierProductId, supplierVariantId: p.supplierVariantId }],
    },
  });
  if (set.status !== 200) throw new Error(set.text);
  return linkId;
}
