/** CJ's catalogue: search (listV2, by page number), a product with its variants, and their stock where it did not come along. */
import type { ProductSearchPage, SupplierCallContext, SupplierProduct } from '../adapter';
import { SupplierError } from '../errors';
import { asObj, text } from '../http';
import { pageOfCursor, pageSizeWithin } from '../paging';
import type { CjClient } from './client';
import { count, imageOf, list, readProduct, rowStock, titleOf, WORLD } from './readers';
import { cjProductUrl } from './urls';

const MAX_PAGE = 1000;
const MAX_PAGE_SIZE = 100;
/** How many variant-to-product ids are remembered for VARIANT and STOCK notifications, which name variants only. */
const MAX_REMEMBERED_VARIANTS = 20_000;

/**
 * vid -> pid of every product this process read, for notifications that name a variant only. A hint, not state:
 * another process without it refuses such a push (docs/decisions.md, Supplier contract).
 */
export class VariantMemory {
  private readonly productOf = new Map<string, string>();

  remember(vid: string, pid: string): void {
    this.productOf.delete(vid);
    this.productOf.set(vid, pid);
    if (this.productOf.size > MAX_REMEMBERED_VARIANTS) {
      const oldest = this.productOf.keys().next().value;
      if (oldest !== undefined) this.productOf.delete(oldest);
    }
  }

  productOfVariant(vid: string): string | undefined {
    return this.productOf.get(vid);
  }
}

export async function searchProducts(
  client: CjClient,
  ctx: SupplierCallContext,
  q: { query?: string; cursor?: string; pageSize: number },
): Promise<ProductSearchPage> {
  const page = pageOfCursor(q.cursor, MAX_PAGE);
  const size = pageSizeWithin(q.pageSize, MAX_PAGE_SIZE);
  const keyWord = q.query?.trim() ? q.query.trim() : undefined;
  const answer = await client.request(ctx, { method: 'GET', path: '/product/listV2', query: { keyWord, page: String(page), size: String(size) } }, 'other');
  return client.read(answer, (data) => {
    const o = asObj(data, 'page');
    const items: SupplierProduct[] = [];
    for (const [i, group] of list(o.content ?? [], 'page.content').entries()) {
      for (const [j, raw] of list(asObj(group, `page.content[${i}]`).productList ?? [], `page.content[${i}].productList`).entries()) {
        const p = asObj(raw, `page.content[${i}].productList[${j}]`);
        const id = text(p, 'id', `page.content[${i}].productList[${j}]`);
        const title = titleOf(p, id);
        // listV2 carries no variants: costs and stock come with the product itself.
        items.push({ id, title, description: '', url: cjProductUrl(id, title), imageUrl: imageOf(p), shipsTo: WORLD, variants: [], updatedAt: null });
      }
    }
    const total = count(o.totalRecords);
    const pages = count(o.totalPages);
    const more = items.length > 0 && page < Math.min(pages, MAX_PAGE);
    return { items, nextCursor: more ? String(page + 1) : null, total };
  });
}

export async function getProduct(client: CjClient, ctx: SupplierCallContext, supplierProductId: string, variants: VariantMemory): Promise<SupplierProduct> {
  const subject = { productId: supplierProductId };
  const answer = await client.request(
    ctx,
    { method: 'GET', path: '/product/query', query: { pid: supplierProductId, features: 'enable_inventory' } },
    'product',
    subject,
  );
  if (answer.data === null || answer.data === undefined) throw new SupplierError('notFound', 'CJ does not offer this product', subject);
  const { product, missingStock } = client.read(answer, (data) => readProduct(data));
  // Variants whose stock did not come with the product: CJ's stock call, one per variant.
  for (const variant of missingStock) variant.stock = await variantStock(client, ctx, variant.id);
  for (const v of product.variants) variants.remember(v.id, product.id);
  return product;
}

async function variantStock(client: CjClient, ctx: SupplierCallContext, vid: string): Promise<number> {
  const answer = await client.request(ctx, { method: 'GET', path: '/product/stock/queryByVid', query: { vid } }, 'product', { variantId: vid });
  return client.read(answer, (data) => (data === null ? 0 : list(data, 'stock').reduce((sum: number, row) => sum + rowStock(row), 0)));
}
