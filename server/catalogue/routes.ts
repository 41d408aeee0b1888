import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { ApiError, errors } from '../platform/errors';
import { defineRoutes, route, Reply, RequestContext } from '../platform/http/route';
import { object, pageOf, pageQuery, params, supplierRef, uuid } from '../platform/http/schemas';
import { productSchema } from '../stores/schemas';
import type { ConnectionService, SupplierConnection } from '../connections';
import { DEFAULT_SYNC } from './types';
import type { ImportFailure } from './import-failures';
import { IMPORT_INLINE_LIMIT, ImportService } from './imports';
import type { LinkService } from './links';
import { DEFAULT_IMPORT_PRICE_RULE, normalisePriceRule, PriceRule, PriceRuleError } from './price-rule';
import { importFailureSchema, importItemSchema, importJobSchema, importJobSummarySchema, linkSchema, priceRuleSchema, supplierProductPageSchema, supplierProductSchema, syncSchema, variantMappingSchema } from './schemas';
import type { SupplierProductService } from './supplier-products';

const BASE = '/api/store-suppliers';
const TAG_PRODUCTS = 'Supplier products and imports';
const TAG_LINKS = 'Product links';
const supplierProductIdParam = object({ storeId: uuid, id: uuid, supplierProductId: supplierRef }, ['storeId', 'id', 'supplierProductId']);

function nothingImported(failures: ImportFailure[]): ApiError {
  const [first] = failures;
  const message = failures.length === 1 ? `Nothing was imported: ${first.message}` : `None of the ${failures.length} products was imported; details gives each one's reason.`;
  return new ApiError(422, 'nothingImported', message, failures.map((f) => ({ ...f })));
}

function rule(input: Partial<PriceRule> | undefined) {
  if (input === undefined) return DEFAULT_IMPORT_PRICE_RULE;
  try {
    return normalisePriceRule(input);
  } catch (e) {
    if (e instanceof PriceRuleError) throw errors.validationFailed([{ field: `body/priceRule/${e.field}`, message: e.message }]);
    throw e;
  }
}

export function catalogueRoutes(connections: ConnectionService, supplierProducts: SupplierProductService, imports: ImportService, links: LinkService) {
  /** The connection in the caller's scope, usable now (enabled, with credentials). */
  const usable = async (ctx: RequestContext<{ storeId: string }, unknown, unknown>, connectionId: string): Promise<SupplierConnection> => {
    const conn = await connections.get(ctx.params.storeId, connectionId, ownRecordsKeyId(ctx.caller));
    if (!conn.enabled) throw errors.invalidState('The connection is switched off.');
    return conn;
  };
  return defineRoutes([
    route({
      operationId: 'searchSupplierProducts',
      method: 'get',
      path: `${BASE}/:storeId/:id/products`,
      summary: 'Browse or search the supplier\'s catalogue, paged by cursor',
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      params: params(['storeId', 'id']),
      query: object({ query: { type: 'string', maxLength: 200 }, ...pageQuery }),
      response: { status: 200, schema: supplierProductPageSchema },
      async handler(ctx) {
        return supplierProducts.search(await usable(ctx, ctx.params.id), ctx.query);
      },
    }),
    route({
      operationId: 'resolveSupplierProductUrl',
      method: 'post',
      path: `${BASE}/:storeId/:id/products/resolve-url`,
      summary: 'Turn a pasted product link into the supplier\'s product id (the address itself is never fetched)',
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      params: params(['storeId', 'id']),
      body: object({ url: { type: 'string', minLength: 1, maxLength: 2000 } }, ['url']),
      response: { status: 200, schema: object({ supplierProductId: { type: 'string' }, product: supplierProductSchema }, ['supplierProductId', 'product']) },
      async handler(ctx) {
        return supplierProducts.resolveUrl(await usable(ctx, ctx.params.id), ctx.body.url);
      },
    }),
    route({
      operationId: 'getSupplierProduct',
      method: 'get',
      path: `${BASE}/:storeId/:id/products/:supplierProductId`,
      summary: 'One supplier product with variants, costs and stock',
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      params: supplierProductIdParam,
      response: { status: 200, schema: supplierProductSchema },
      async handler(ctx) {
        return supplierProducts.get(await usable(ctx, ctx.params.id), ctx.params.supplierProductId);
      },
    }),
    route({
      operationId: 'previewImport',
      method: 'post',
      path: `${BASE}/:storeId/:id/import/preview`,
      summary: 'Price chosen products with the price rule and name duplicates; nothing is written or charged',
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      params: params(['storeId', 'id']),
      body: object({ products: { type: 'array', items: importItemSchema, minItems: 1, maxItems: IMPORT_INLINE_LIMIT }, priceRule: priceRuleSchema }, ['products']),
      response: {
        status: 200,
        schema: object(
          {
            items: {
              type: 'array',
              items: object(
                {
                  supplierProductId: { type: 'string' },
                  title: { type: 'string' },
                  currencyMatchesStore: { type: 'boolean' },
                  duplicateOf: { type: 'array', items: uuid, description: 'Store products already imported from or linked to this supplier product' },
                  variants: { type: 'array', items: { type: 'object' } },
                },
                ['supplierProductId', 'title', 'currencyMatchesStore', 'duplicateOf', 'variants'],
              ),
            },
            errors: { type: 'array', items: importFailureSchema },
          },
          ['items', 'errors'],
        ),
      },
      async handler(ctx) {
        return imports.preview(ctx.params.storeId, await usable(ctx, ctx.params.id), ctx.body.products, rule(ctx.body.priceRule));
      },
    }),
    route({
      operationId: 'importSupplierProducts',
      method: 'post',
      path: `${BASE}/:storeId/:id/import`,
      summary: `Import supplier products as store products with links; up to ${IMPORT_INLINE_LIMIT} at once, more as a background job to poll`,
      description: `Each product is created atomically with its variants and link, and costs the credits of one import. Up to ${IMPORT_INLINE_LIMIT} products answer 201 with what was created (and \`errors\` for the products that were not) or, when none was created, 422 \`nothingImported\` with each product's code and message in \`details\`; more answer 202 with the job to poll at GET /:storeId/imports/:jobId.`,
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      // Up to the inline limit, every product is paid at once and the ones that fail are refunded; a job pays
      // for each product in the transaction that makes it.
      credits: { action: 'supplierProduct.import', price: 2, unit: 'product', units: (body) => body.products.length, when: (body) => (body.products.length <= IMPORT_INLINE_LIMIT ? 'request' : 'recordCreated') },
      readOnly: false,
      params: params(['storeId', 'id']),
      body: object(
        { products: { type: 'array', items: importItemSchema, minItems: 1, maxItems: 1000 }, priceRule: priceRuleSchema, sync: syncSchema, status: { enum: ['active', 'draft'] } },
        ['products'],
      ),
      response: {
        status: 201,
        schema: object({ products: { type: 'array', items: productSchema }, links: { type: 'array', items: linkSchema }, errors: { type: 'array', items: importFailureSchema } }, ['products', 'links', 'errors']),
      },
      extraResponses: [
        [202, { description: 'A background import job; poll it', content: { 'application/json': { schema: { type: 'object', properties: { result: importJobSchema } } } } }],
        [422, { description: 'nothingImported: no product was created; `details` holds each product\'s `supplierProductId`, `code` and `message`', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }],
      ],
      async handler(ctx) {
        const conn = await usable(ctx, ctx.params.id);
        const opts = { rule: rule(ctx.body.priceRule), sync: { ...DEFAULT_SYNC, ...(ctx.body.sync ?? {}) }, status: ctx.body.status };
        const creator = creatorOf(ctx.caller!);
        if (ctx.body.products.length <= IMPORT_INLINE_LIMIT) {
          const done = await imports.importNow(ctx.params.storeId, conn, ctx.body.products, opts, creator);
          // Nothing made: an error answer (the whole charge is refunded), each product's reason in the details.
          if (!done.products.length) throw nothingImported(done.errors);
          ctx.credits.refundUnits(done.errors.length);
          return new Reply(201, done);
        }
        const job = await imports.startJob(ctx.params.storeId, conn, ctx.body.products, opts, creator, ctx.credits.ticket());
        return new Reply(202, await imports.getJob(ctx.params.storeId, job.id, null));
      },
    }),
    route({
      operationId: 'listImportJobs',
      method: 'get',
      path: `${BASE}/:storeId/imports`,
      summary: 'The store\'s import jobs, newest first, paged by cursor, each with its progress',
      description: 'Not in the spec\'s route list: it lets a person or a workflow find a background import without having kept its id.',
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      readOnly: true,
      params: params(['storeId']),
      query: object({ ...pageQuery }),
      response: { status: 200, schema: pageOf(importJobSummarySchema) },
      async handler(ctx) {
        return imports.listJobs(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query);
      },
    }),
    route({
      operationId: 'getImportJob',
      method: 'get',
      path: `${BASE}/:storeId/imports/:jobId`,
      summary: 'Progress of a background import: status, total, done, failed, per-product errors and created products',
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      readOnly: true,
      params: params(['storeId', 'jobId']),
      response: { status: 200, schema: importJobSchema },
      async handler(ctx) {
        return imports.getJob(ctx.params.storeId, ctx.params.jobId, ownRecordsKeyId(ctx.caller));
      },
    }),
    route({
      operationId: 'listProductLinks',
      method: 'get',
      path: `${BASE}/:storeId/links`,
      summary: 'The store\'s product links, newest first, paged by cursor',
      tag: TAG_LINKS,
      auth: 'caller',
      permission: 'suppliers.view',
      readOnly: true,
      params: params(['storeId']),
      query: object({ ...pageQuery, connectionId: uuid, productId: uuid }),
      response: { status: 200, schema: pageOf(linkSchema) },
      async handler(ctx) {
        return links.list(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query);
      },
    }),
    route({
      operationId: 'createProductLink',
      method: 'post',
      path: `${BASE}/:storeId/links`,
      summary: 'Link a product the store already has to a supplier product; every store variant maps to a supplier variant',
      tag: TAG_LINKS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      credits: { action: 'productLink.create', price: 1 },
      readOnly: false,
      params: params(['storeId']),
      body: object(
        { productId: uuid, connectionId: uuid, supplierProductId: supplierRef, variants: { type: 'array', items: variantMappingSchema, minItems: 1, maxItems: 100 }, priceRule: priceRuleSchema, sync: syncSchema },
        ['productId', 'connectionId', 'supplierProductId', 'variants'],
      ),
      response: { status: 201, schema: linkSchema },
      async handler(ctx) {
        const conn = await usable(ctx, ctx.body.connectionId);
        const product = await links.storeProduct(ctx.params.storeId, ctx.body.productId, ownRecordsKeyId(ctx.caller));
        const supplierProduct = await supplierProducts.get(conn, ctx.body.supplierProductId);
        const link = await links.create(
          { storeId: ctx.params.storeId, product, conn, supplierProduct, mappings: ctx.body.variants, priceRule: rule(ctx.body.priceRule), sync: { ...DEFAULT_SYNC, ...(ctx.body.sync ?? {}) } },
          creatorOf(ctx.caller!),
        );
        return links.view(link);
      },
    }),
    route({
      operationId: 'updateProductLink',
      method: 'put',
      path: `${BASE}/:storeId/links/:linkId`,
      summary: 'Change a link\'s variant mapping, price rule or sync switches (fields left out keep their values)',
      tag: TAG_LINKS,
      auth: 'caller',
      permission: 'suppliers.import',
      readOnly: false,
      params: params(['storeId', 'linkId']),
      body: object({ variants: { type: 'array', items: variantMappingSchema, minItems: 1, maxItems: 100 }, priceRule: priceRuleSchema, sync: syncSchema }, [], { minProperties: 1 }),
      response: { status: 200, schema: linkSchema },
      async handler(ctx) {
        const link = await links.get(ctx.params.storeId, ctx.params.linkId, ownRecordsKeyId(ctx.caller));
        if (ctx.body.priceRule) rule({ ...link.priceRule, ...ctx.body.priceRule });
        const updated = await links.update(link, ctx.body, async () => supplierProducts.get(await connections.get(ctx.params.storeId, link.connectionId, null), link.supplierProductId));
        return links.view(updated);
      },
    }),
    route({
      operationId: 'deleteProductLink',
      method: 'delete',
      path: `${BASE}/:storeId/links/:linkId`,
      summary: 'Unlink; the product stays as the store\'s own',
      tag: TAG_LINKS,
      auth: 'caller',
      permission: 'suppliers.import',
      readOnly: false,
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
      summary: 'Sync one link now, within its sync switches',
      tag: TAG_LINKS,
      auth: 'caller',
      permission: 'suppliers.import',
      readOnly: false,
      params: params(['storeId', 'linkId']),
      response: { status: 200, schema: linkSchema },
      async handler(ctx) {
        const link = await links.get(ctx.params.storeId, ctx.params.linkId, ownRecordsKeyId(ctx.caller));
        const conn = await connections.findById(link.connectionId);
        if (!conn || conn.disconnectedAt) throw errors.invalidState('The link\'s connection was removed.');
        await links.syncOne(link, conn);
        return links.view(await links.get(ctx.params.storeId, link.id, null));
      },
    }),
  ]);
}
