/**
 * What each supplier offers (read from its own API or control API once), and importing one more product of it into a
 * store: the import costs 2 credits per product imported, so it goes in the credit book, with a probe (is the product
 * linked now?) for an import that got no answer.
 */
import { call, control, type Api } from './api';
import type { Suppliers } from './programs';

export type SupplierName = 'sandbox' | 'cj' | 'aliexpress' | 'printful';

export interface Offer {
  supplierProductId: string;
  supplierVariantId: string;
}

export interface Product extends Offer {
  supplier: SupplierName;
  productId: string;
  variantId: string;
}

export type Catalogues = Record<SupplierName, Offer[]>;

interface SandboxProduct {
  id: string;
  shipsTo: string[];
  variants: Array<{ id: string; stock: number; available: boolean }>;
}
interface CjProduct {
  pid: string;
  status: number;
  variants: Array<{ vid: string; removed?: boolean; totalStock: number }>;
}
interface PfProduct {
  id: number;
  variants: Array<{ id: number; availability_status: string; made: { in_stock: boolean } }>;
}
interface AeProduct {
  productId: string;
  status: string;
  notSoldTo: string[];
  skus: Array<{ skuId: string; stock: number }>;
}

export async function loadCatalogues(s: Suppliers): Promise<Catalogues> {
  const sandbox: Offer[] = [];
  for (let page = 1; page <= 6; page++) {
    const res = await call<{ items: SandboxProduct[] }>(s.sandbox.baseUrl, 'GET', `/v1/products?pageSize=100&page=${page}`, {
      headers: { Authorization: 'Bearer sbx_live_demo' },
    });
    for (const p of res.body.items) {
      const v = p.variants[0];
      if (p.shipsTo.includes('US') && v.available && v.stock >= 100) sandbox.push({ supplierProductId: p.id, supplierVariantId: v.id });
    }
  }
  const cj = (await control<CjProduct[]>(s.cj.control, 'GET', '/catalogue'))
    .filter((p) => p.status === 3 && !p.variants[0].removed && p.variants[0].totalStock >= 50)
    .map((p) => ({ supplierProductId: p.pid, supplierVariantId: p.variants[0].vid }));
  const aliexpress = (await control<AeProduct[]>(s.aliexpress.control, 'GET', '/catalogue'))
    .filter((p) => p.status === 'onSelling' && p.notSoldTo.length === 0 && p.skus[0].stock >= 50)
    .map((p) => ({ supplierProductId: p.productId, supplierVariantId: `${p.productId}:${p.skus[0].skuId}` }));
  const printful = (await control<PfProduct[]>(s.printful.control, 'GET', '/catalogue'))
    .filter((p) => p.variants[0].availability_status === 'active' && p.variants[0].made.in_stock)
    .map((p) => ({ supplierProductId: String(p.id), supplierVariantId: String(p.variants[0].id) }));
  return { sandbox, cj, aliexpress, printful };
}

interface Imported {
  products: Array<{ id: string; variants: Array<{ id: string }> }>;
  errors: unknown[];
}

/**
 * Imports the next product of `supplier` the store does not have (stores start at different places in the
 * catalogue, so they overlap little). Answers the product, or null when it was not imported (or it is not known yet).
 */
/** What an import reads and changes of a soak store (./world.ts's Store has it): said here, so the two import no circle. */
export interface ImportingStore {
  index: number;
  api: Api;
  owner: { accountId: string; key: string };
  storeId: string;
  conns: Record<SupplierName, string>;
  products: Product[];
  tried: Set<string>;
}

export async function importOne(store: ImportingStore, cats: Catalogues, supplier: SupplierName): Promise<Product | null> {
  const offers = cats[supplier];
  const taken = new Set(store.products.map((p) => p.supplierProductId));
  const start = (store.index * 7) % offers.length;
  const offer = [...offers.slice(start), ...offers.slice(0, start)].find((o) => !taken.has(o.supplierProductId) && !store.tried.has(o.supplierProductId));
  if (!offer) return null;
  store.tried.add(offer.supplierProductId);
  const { api, owner, storeId } = store;
  const connId = store.conns[supplier];
  const a = await api.charged<{ result: Imported }>(
    {
      accountId: owner.accountId,
      action: 'supplierProduct.import',
      price: 2,
      what: `import ${supplier} product ${offer.supplierProductId} into store ${storeId}`,
      done: (x) => 2 * x.body.result.products.length,
      probe: async () => {
        const links = await api.patiently<{ result: { items: Array<{ supplierProductId: string }> } }>(
          'GET',
          `/api/store-suppliers/${storeId}/links?connectionId=${connId}&pageSize=100`,
          { key: owner.key },
        );
        return links.body.result.items.some((l) => l.supplierProductId === offer.supplierProductId);
      },
    },
    'POST',
    `/api/store-suppliers/${storeId}/${connId}/import`,
    {
      key: owner.key,
      body: { products: [{ supplierProductId: offer.supplierProductId, variantIds: [offer.supplierVariantId] }], priceRule: { multiplier: '2' } },
    },
  );
  const made = a.status === 201 ? a.body.result.products[0] : undefined;
  if (!made) return null;
  const product: Product = { ...offer, supplier, productId: made.id, variantId: made.variants[0].id };
  store.products.push(product);
  return product;
}
