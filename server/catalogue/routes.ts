import { defineRoutes, route } from '../platform/http/route';
import { object, pageQuery, params, supplierRef, uuid } from '../platform/http/schemas';
import type { ConnectionService } from '../connections';
import { ImportService } from './imports';
import { linkRoutes } from './link-routes';
import type { LinkService } from './links';
import { BASE, usableConnection } from './route-parts';
import { supplierProductPageSchema, supplierProductSchema } from './schemas';
import type { SupplierProductService } from './supplier-products';
import { importRoutes } from './import-routes';

const TAG_PRODUCTS = 'Supplier products and imports';
const supplierProductIdParam = object({ storeId: uuid, id: uuid, supplierProductId: supplierRef }, ['storeId', 'id', 'supplierProductId']);

/** The catalogue's routes: the supplier's products, imports, and (./link-routes.ts) product links. */
export function catalogueRoutes(connections: ConnectionService, supplierProducts: SupplierProductService, imports: ImportService, links: LinkService) {
  const usable = usableConnection(connections);
  return defineRoutes([
    route({
      operationId: 'searchSupplierProducts',
      method: 'get',
      path: `${BASE}/:storeId/:id/products`,
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      summary: "Browse or search the supplier's catalogue, paged by cursor",
      params: params(['storeId', 'id']),
      query: object({ query: { type: 'string', maxLength: 200 }, ...pageQuery }),
      response: { status: 200, schema: supplierProductPageSchema },
      handler: async (ctx) => supplierProducts.search(await usable(ctx, ctx.params.id), ctx.query),
    }),
    route({
      operationId: 'resolveSupplierProductUrl',
      method: 'post',
      path: `${BASE}/:storeId/:id/products/resolve-url`,
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      summary: "Turn a pasted product link into the supplier's product id (the address itself is never fetched)",
      params: params(['storeId', 'id']),
      body: object({ url: { type: 'string', minLength: 1, maxLength: 2000 } }, ['url']),
      response: { status: 200, schema: object({ supplierProductId: { type: 'string' }, product: supplierProductSchema }, ['supplierProductId', 'product']) },
      handler: async (ctx) => supplierProducts.resolveUrl(await usable(ctx, ctx.params.id), ctx.body.url),
    }),
    route({
      operationId: 'getSupplierProduct',
      method: 'get',
      path: `${BASE}/:storeId/:id/products/:supplierProductId`,
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      summary: 'One supplier product with variants, costs and stock',
      params: supplierProductIdParam,
      response: { status: 200, schema: supplierProductSchema },
      handler: async (ctx) => supplierProducts.get(await usable(ctx, ctx.params.id), ctx.params.supplierProductId),
    }),
    ...importRoutes(imports, usable),
    ...linkRoutes(connections, supplierProducts, links, usable),
  ]);
}
