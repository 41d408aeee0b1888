import { actorOf, ownRecordsKeyId } from '../identity/permissions';
import { errors } from '../platform/errors';
import { byCaller, defineRoutes, Reply, route } from '../platform/http/route';
import { object, pageOf, params, uuid } from '../platform/http/schemas';
import type { OrderService } from '../orders';
import type { DispatchCommands } from './commands';
import { supplierOrderSchema } from './schemas';
import { SUPPLIER_ORDER_STATUSES } from './state-machine';
import type { SupplierOrderReads } from './views';
import { answering, BASE, partParams, preferHeader, settled, soParams, stillWorking, TAG } from './route-parts';
import { supplierOrderActionRoutes } from './action-routes';

/** Supplier orders read, and a part sent or taken over; what is done to one supplier order is ./action-routes.ts. */
export function supplierOrderRoutes(commands: DispatchCommands, reads: SupplierOrderReads, orders: OrderService) {
  const { showCustomer, opts, answer, load } = answering(reads);

  return defineRoutes([
    route({
      operationId: 'listSupplierOrders',
      method: 'get',
      path: `${BASE}/:storeId/orders`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'Supplier orders, newest first, filtered and paged by cursor',
      description: 'Repeat with the same filters and the previous nextCursor as cursor until hasMore is false. Read every page before acting on rows.',
      params: params(['storeId']),
      query: object({
        status: { enum: [...SUPPLIER_ORDER_STATUSES] },
        needsReview: { type: 'boolean', description: 'true: only orders waiting for review' },
        needsAttention: { type: 'boolean', description: 'true: only sent orders whose delivery needs a look (deliveryAttention); false: only those without' },
        integrationId: uuid,
        orderId: uuid,
        contractModel: { enum: ['standard', 'promiseToSell'] },
        cursor: { type: 'string', maxLength: 512 },
        pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
      }),
      response: { status: 200, schema: pageOf(supplierOrderSchema) },
      async handler(ctx) {
        const page = await reads.list(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query);
        return { ...page, items: await reads.views(page.items, showCustomer(ctx)) };
      },
    }),
    route({
      operationId: 'getSupplierOrder',
      method: 'get',
      path: `${BASE}/:storeId/orders/:supplierOrderId`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'One supplier order with its history',
      params: soParams,
      response: { status: 200, schema: supplierOrderSchema },
      handler: async (ctx) => (await reads.views([await load(ctx)], showCustomer(ctx)))[0],
    }),
    route({
      operationId: 'submitOrderPart',
      method: 'post',
      path: `${BASE}/:storeId/orders/:orderId/groups/:groupKey/submit`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.orders.manage',
      planGated: true,
      credits: { action: 'supplierOrder.send', price: 3, when: 'recordCreated' },
      readOnly: false,
      idempotent: true,
      summary: 'Send one part of an order to its supplier now; called twice it still makes one supplier order',
      description: 'Charged once per supplier order made: a part that already has one answers it and charges nothing.',
      params: partParams,
      headers: [preferHeader],
      body: object({
        payNow: { type: 'boolean', description: 'Also pay as soon as it is created, skipping the check that the shopper paid; recorded in the history' },
      }),
      response: settled,
      extraResponses: [stillWorking],
      async handler(ctx) {
        const order = await orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
        return answer(
          ctx,
          // `:groupKey` is the path's (wire) name of the part key.
          await commands.submit(order, ctx.params.groupKey, actorOf(ctx.caller!), !!ctx.body.payNow, {
            ...opts(ctx),
            charge: (tx) => ctx.credits.chargeInTransaction(tx),
          }),
        );
      },
    }),
    ...supplierOrderActionRoutes(commands, reads),
    route({
      operationId: 'fulfilOrderPartManually',
      method: 'post',
      path: `${BASE}/:storeId/orders/:orderId/groups/:groupKey/fulfil-manually`,
      ...byCaller(TAG, 'suppliers.orders.manage', false),
      summary: 'Take a part over so the store ships it itself (its supplier order, if any, is cancelled)',
      params: partParams,
      headers: [preferHeader],
      response: {
        status: 200,
        schema: object({ supplierOrder: { oneOf: [supplierOrderSchema, { type: 'null' }] }, part: { type: 'object' } }, ['supplierOrder', 'part']),
      },
      extraResponses: [stillWorking],
      async handler(ctx) {
        const order = await orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
        // `:groupKey` is the path's (wire) name of the part key.
        const out = await commands.fulfilManually(order, ctx.params.groupKey, actorOf(ctx.caller!), opts(ctx));
        if (!out.part) throw errors.notFound('The order part');
        const so = out.so ? (await reads.views([out.so], showCustomer(ctx)))[0] : null;
        return new Reply(out.settled ? 200 : 202, {
          supplierOrder: so,
          // The answer's `groupKey` is the wire's name for partKey.
          part: { groupKey: out.part.partKey, status: out.part.status, fulfilledByStore: out.part.fulfilledByStore, shipment: out.part.shipment },
        });
      },
    }),
  ]);
}
