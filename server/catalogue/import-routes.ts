import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { byCaller, defineRoutes, Reply, route } from '../platform/http/route';
import { object, pageOf, pageQuery, params, uuid } from '../platform/http/schemas';
import { productSchema } from '../stores/schemas';
import { IMPORT_INLINE_LIMIT, ImportService } from './imports';
import { BASE, nothingImported, rule, usableConnection } from './route-parts';
import {
  costRateSchema,
  importFailureSchema,
  importItemSchema,
  importJobSchema,
  importJobSummarySchema,
  linkSchema,
  priceRuleSchema,
  syncSchema,
} from './schemas';
import { DEFAULT_SYNC } from './types';

const TAG_PRODUCTS = 'Supplier products and imports';

/** Imports: a preview priced by the rule (free), an import (inline or as a job), and the jobs followed. */
export function importRoutes(imports: ImportService, usable: ReturnType<typeof usableConnection>) {
  return defineRoutes([
    route({
      operationId: 'previewImport',
      method: 'post',
      path: `${BASE}/:storeId/:id/import/preview`,
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      readOnly: true,
      summary: 'Price chosen products with the price rule and name duplicates; nothing is written or charged',
      params: params(['storeId', 'id']),
      body: object({ products: { type: 'array', items: importItemSchema, minItems: 1, maxItems: IMPORT_INLINE_LIMIT }, priceRule: priceRuleSchema }, [
        'products',
      ]),
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
                  rate: costRateSchema,
                  duplicateOf: { type: 'array', items: uuid, description: 'Store products already imported from or linked to this supplier product' },
                  variants: { type: 'array', items: { type: 'object' } },
                },
                ['supplierProductId', 'title', 'currencyMatchesStore', 'rate', 'duplicateOf', 'variants'],
              ),
            },
            errors: { type: 'array', items: importFailureSchema },
          },
          ['items', 'errors'],
        ),
      },
      handler: async (ctx) => imports.preview(ctx.params.storeId, await usable(ctx, ctx.params.id), ctx.body.products, rule(ctx.body.priceRule)),
    }),
    route({
      operationId: 'importSupplierProducts',
      method: 'post',
      path: `${BASE}/:storeId/:id/import`,
      tag: TAG_PRODUCTS,
      auth: 'caller',
      permission: 'suppliers.import',
      planGated: true,
      idempotent: true,
      summary: `Import supplier products as store products with links; up to ${IMPORT_INLINE_LIMIT} at once, more as a background job to poll`,
      description: `Each product is created atomically with its variants and link, and costs the credits of one import. Up to ${IMPORT_INLINE_LIMIT} products answer 201 with what was created (and \`errors\` for the products that were not) or, when none was created, 422 \`nothingImported\` with each product's code and message in \`details\`; more answer 202 with the job to poll at GET /:storeId/imports/:jobId.`,
      // Up to the inline limit, every product is paid at once and the ones that fail are refunded; a job pays
      // for each product in the transaction that makes it.
      credits: {
        action: 'supplierProduct.import',
        price: 2,
        unit: 'product',
        units: (body) => body.products.length,
        when: (body) => (body.products.length <= IMPORT_INLINE_LIMIT ? 'request' : 'recordCreated'),
      },
      readOnly: false,
      params: params(['storeId', 'id']),
      body: object(
        {
          products: { type: 'array', items: importItemSchema, minItems: 1, maxItems: 1000 },
          priceRule: priceRuleSchema,
          sync: syncSchema,
          status: { enum: ['active', 'draft'] },
        },
        ['products'],
      ),
      response: {
        status: 201,
        schema: object(
          {
            products: { type: 'array', items: productSchema },
            links: { type: 'array', items: linkSchema },
            errors: { type: 'array', items: importFailureSchema },
          },
          ['products', 'links', 'errors'],
        ),
      },
      extraResponses: [
        [
          202,
          {
            description: 'A background import job; poll it',
            content: { 'application/json': { schema: { type: 'object', properties: { result: importJobSchema } } } },
          },
        ],
        [
          422,
          {
            description: "nothingImported: no product was created; `details` holds each product's `supplierProductId`, `code` and `message`",
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ],
      ],
      async handler(ctx) {
        const conn = await usable(ctx, ctx.params.id);
        const opts = { rule: rule(ctx.body.priceRule), sync: { ...DEFAULT_SYNC, ...(ctx.body.sync ?? {}) }, status: ctx.body.status };
        const creator = creatorOf(ctx.caller!);
        if (ctx.body.products.length <= IMPORT_INLINE_LIMIT) {
          // Each product made spends its credits in its own transaction; the ones not made are refunded at the end.
          const done = await imports.importNow(ctx.params.storeId, conn, ctx.body.products, opts, creator, (tx) => ctx.credits.spendInTransaction(tx));
          // Nothing made: an error answer (nothing spent, the whole charge refunded), each product's reason in the details.
          if (!done.products.length) throw nothingImported(done.errors);
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
      ...byCaller(TAG_PRODUCTS, 'suppliers.import', true),
      summary: "The store's import jobs, newest first, paged by cursor, each with its progress",
      description: "Not in the spec's route list: it lets a person or a workflow find a background import without having kept its id.",
      params: params(['storeId']),
      query: object({ ...pageQuery }),
      response: { status: 200, schema: pageOf(importJobSummarySchema) },
      handler: async (ctx) => imports.listJobs(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query),
    }),
    route({
      operationId: 'getImportJob',
      method: 'get',
      path: `${BASE}/:storeId/imports/:jobId`,
      ...byCaller(TAG_PRODUCTS, 'suppliers.import', true),
      summary: 'Progress of a background import: status, total, done, failed, per-product errors and created products',
      params: params(['storeId', 'jobId']),
      response: { status: 200, schema: importJobSchema },
      handler: async (ctx) => imports.getJob(ctx.params.storeId, ctx.params.jobId, ownRecordsKeyId(ctx.caller)),
    }),
  ]);
}
