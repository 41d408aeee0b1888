import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { ApiError, errors } from '../platform/errors';
import { byCaller, defineRoutes, Reply, route } from '../platform/http/route';
import { object, pageOf, pageQuery, params, supplierRef, uuid } from '../platform/http/schemas';
import type { ConnectionService } from '../connections';
import type { LinkService } from './links';
import { BASE, rule, type UsableConnection } from './route-parts';
import { alternatesBody, linkRoutingSchema, linkSchema, priceRuleSchema, syncSchema, variantMappingSchema } from './schemas';
import { checkAlternates } from './alternates';
import type { AlternateInput } from './types';
import type { SupplierProductService } from './supplier-products';
import { DEFAULT_SYNC } from './types';

const TAG_LINKS = 'Product links';

/** Product links: a store product tied to a supplier product, its variants mapped, its price rule and sync switches. */
export function linkRoutes(connections: ConnectionService, supplierProducts: SupplierProductService, links: LinkService, usable: UsableConnection) {
  /**
   * Where alternates are read from, for this caller: a connection goes through the primary's check (the key's record
   * scope, as `usable`; switched on, live and signed in is checked by checkAlternates, naming each that is not).
   */
  const sourcesFor = (ownKeyId: string | null) => ({
    connection: (storeId: string, id: string) =>
      connections.get(storeId, id, ownKeyId).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    product: (conn: Parameters<SupplierProductService['get']>[0], id: string) => supplierProducts.read(conn, id),
  });
  const alternates = async (
    link: { storeId: string; connectionId: string; productId: string },
    input: AlternateInput[] | undefined,
    ownKeyId: string | null,
  ) =>
    input === undefined
      ? undefined
      : checkAlternates(sourcesFor(ownKeyId), { ...link, storeVariantIds: await links.storeVariantIds(link.storeId, link.productId) }, input);
  return defineRoutes([
    route({
      operationId: 'listProductLinks',
      method: 'get',
      path: `${BASE}/:storeId/links`,
      ...byCaller(TAG_LINKS, 'suppliers.view', true),
      summary: "The store's product links, newest first, paged by cursor",
      params: params(['storeId']),
      query: object({ ...pageQuery, connectionId: uuid, productId: uuid }),
      response: { status: 200, schema: pageOf(linkSchema) },
      handler: async (ctx) => links.list(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query),
    }),
    route({
      operationId: 'createProductLink',
      method: 'post',
      path: `${BASE}/:storeId/links`,
      tag: TAG_LINKS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      credits: { action: 'productLink.create', price: 1 },
      readOnly: false,
      idempotent: true,
      summary: 'Link a product the store already has to a supplier product; every store variant maps to a supplier variant',
      params: params(['storeId']),
      body: object(
        {
          productId: uuid,
          connectionId: uuid,
          supplierProductId: supplierRef,
          variants: { type: 'array', items: variantMappingSchema, minItems: 1, maxItems: 100 },
          priceRule: priceRuleSchema,
          sync: syncSchema,
          alternates: alternatesBody,
          routing: linkRoutingSchema,
        },
        ['productId', 'connectionId', 'supplierProductId', 'variants'],
      ),
      response: { status: 201, schema: linkSchema },
      async handler(ctx) {
        const conn = await usable(ctx, ctx.body.connectionId);
        const product = await links.storeProduct(ctx.params.storeId, ctx.body.productId, ownRecordsKeyId(ctx.caller));
        const supplierProduct = await supplierProducts.get(conn, ctx.body.supplierProductId);
        const backups = await alternates(
          { storeId: ctx.params.storeId, connectionId: conn.id, productId: product.id },
          ctx.body.alternates,
          ownRecordsKeyId(ctx.caller),
        );
        const link = await links.create(
          {
            storeId: ctx.params.storeId,
            product,
            conn,
            supplierProduct,
            mappings: ctx.body.variants,
            priceRule: rule(ctx.body.priceRule),
            sync: { ...DEFAULT_SYNC, ...(ctx.body.sync ?? {}) },
            alternates: backups,
            routing: ctx.body.routing,
          },
          creatorOf(ctx.caller!),
          (tx) => ctx.credits.spendInTransaction(tx),
        );
        return links.view(link);
      },
    }),
    route({
      operationId: 'updateProductLink',
      method: 'put',
      path: `${BASE}/:storeId/links/:linkId`,
      ...byCaller(TAG_LINKS, 'suppliers.import', false),
      // What reads the supplier (a new variant mapping, alternates) needs dropshipping, as creating the link did.
      planGated: {
        when: (body) => body.variants !== undefined || (body.alternates?.length ?? 0) > 0,
        description: 'when variants or a non-empty alternates list is given',
      },
      summary: "Change a link's variant mapping, price rule, sync switches, alternates or routing rule (fields left out keep their values)",
      params: params(['storeId', 'linkId']),
      body: object(
        {
          variants: { type: 'array', items: variantMappingSchema, minItems: 1, maxItems: 100 },
          priceRule: priceRuleSchema,
          sync: syncSchema,
          alternates: alternatesBody,
          routing: linkRoutingSchema,
        },
        [],
        { minProperties: 1 },
      ),
      response: { status: 200, schema: linkSchema },
      async handler(ctx) {
        const link = await links.get(ctx.params.storeId, ctx.params.linkId, ownRecordsKeyId(ctx.caller));
        if (ctx.body.priceRule) rule({ ...link.priceRule, ...ctx.body.priceRule });
        const backups = await alternates(link, ctx.body.alternates, ownRecordsKeyId(ctx.caller));
        const updated = await links.update(link, { ...ctx.body, alternates: backups }, async () =>
          supplierProducts.get(await connections.get(ctx.params.storeId, link.connectionId, null), link.supplierProductId),
        );
        return links.view(updated);
      },
    }),
    route({
      operationId: 'deleteProductLink',
      method: 'delete',
      path: `${BASE}/:storeId/links/:linkId`,
      ...byCaller(TAG_LINKS, 'suppliers.import', false),
      summary: "Unlink; the product stays as the store's own",
      params: params(['storeId', 'linkId']),
      response: { status: 204, schema: {} },
      async handler(ctx) {
        await links.remove(await links.get(ctx.params.storeId, ctx.params.linkId, ownRecordsKeyId(ctx.caller)));
        return new Reply(204, undefined, true);
      },
    }),
    route({
      operationId: 'syncProductLink',
      method: 'post',
      path: `${BASE}/:storeId/links/:linkId/sync`,
      ...byCaller(TAG_LINKS, 'suppliers.import', false),
      summary: 'Sync one link now, within its sync switches',
      params: params(['storeId', 'linkId']),
      response: { status: 200, schema: linkSchema },
      async handler(ctx) {
        const link = await links.get(ctx.params.storeId, ctx.params.linkId, ownRecordsKeyId(ctx.caller));
        const conn = await connections.findById(link.connectionId, link.storeId);
        if (!conn || conn.disconnectedAt) throw errors.invalidState("The link's connection was removed.");
        await links.syncOne(link, conn);
        return links.view(await links.get(ctx.params.storeId, link.id, null));
      },
    }),
  ]);
}
