/** The AliExpress catalogue: text search (by page number) and a product as sold to one country. */
import type { ProductSearchPage, SupplierCallContext, SupplierProduct } from '../adapter';
import { SupplierError } from '../errors';
import { asObj } from '../http';
import { pageOfCursor, pageSizeWithin } from '../paging';
import type { AeClient } from './client';
import type { AeContext } from './codes';
import { setting } from './description';
import { count, listOf, readProduct, readSearchItem } from './readers';

const MAX_PAGE = 100;
const MAX_PAGE_SIZE = 50;

export async function search(
  client: AeClient,
  ctx: SupplierCallContext,
  keyWord: string | undefined,
  page: number,
  pageSize: number,
): Promise<{ items: SupplierProduct[]; total: number }> {
  const params: Record<string, string> = {
    local: setting(ctx, 'language', 'en'),
    countryCode: setting(ctx, 'shipToCountry', 'US'),
    currency: setting(ctx, 'currency', 'USD'),
    pageIndex: String(page),
    pageSize: String(pageSize),
  };
  if (keyWord) params.keyWord = keyWord;
  const body = await client.call(ctx, 'aliexpress.ds.text.search', params, 'other');
  return client.read('aliexpress.ds.text.search', () => {
    const data = asObj(body.data ?? asObj(body.result, 'result').data, 'data');
    const items = listOf(data.products, 'data.products').map((p, i) => readSearchItem(p, `data.products[${i}]`));
    return { items, total: count(data.totalCount) };
  });
}

export async function searchProducts(
  client: AeClient,
  ctx: SupplierCallContext,
  q: { query?: string; cursor?: string; pageSize: number },
): Promise<ProductSearchPage> {
  const page = pageOfCursor(q.cursor, MAX_PAGE);
  const size = pageSizeWithin(q.pageSize, MAX_PAGE_SIZE);
  const { items, total } = await search(client, ctx, q.query?.trim() || undefined, page, size);
  const more = items.length > 0 && page * size < total && page < MAX_PAGE;
  return { items, nextCursor: more ? String(page + 1) : null, total };
}

/** The product as sold to `country` (the connection's ship-to country unless an order names another). */
export async function productFor(client: AeClient, ctx: SupplierCallContext, productId: string, country: string, context: AeContext) {
  const subject = { productId };
  if (!/^\d{1,30}$/.test(productId))
    throw new SupplierError(context === 'product' ? 'notFound' : 'variantUnavailable', 'Not an AliExpress product id', subject);
  const body = await client.call(
    ctx,
    'aliexpress.ds.product.get',
    {
      product_id: productId,
      ship_to_country: country,
      target_currency: setting(ctx, 'currency', 'USD'),
      target_language: setting(ctx, 'language', 'en'),
      remove_personal_benefit: 'false',
    },
    context,
    subject,
  );
  return client.read('aliexpress.ds.product.get', () => readProduct(body.result, setting(ctx, 'currency', 'USD')));
}
