import { actorOf, creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { errors } from '../platform/errors';
import { byCaller, defineRoutes, RequestContext, route } from '../platform/http/route';
import { destinationSchema, object, pageOf, pageQuery, params, uuid } from '../platform/http/schemas';
import { STORE_ORDER_STATUSES } from '../platform/vocabulary/statuses';
import { type StoreOrder } from './types';
import { partParams, orderParams, orderSchemaWith } from './schemas';
import type { OrderPayments } from './payments';
import type { OrderService } from './service';
import type { StoreOrderQueries } from './queries';
import { orderViews, type SupplierOrdersOfOrders } from './views';
import { storeOrderPaymentRoutes } from './payment-routes';

const BASE = '/api/store-orders';
const TAG = 'Store orders';
type Ctx = RequestContext<{ storeId: string }, unknown, unknown>;

export function storeOrderRoutes(orders: OrderService, payments: OrderPayments, supplierOrders: SupplierOrdersOfOrders, listQueries: StoreOrderQueries) {
  const orderSchema = orderSchemaWith(supplierOrders.schema, supplierOrders.profit.schema);
  const details = orderViews(orders, payments, supplierOrders);
  const load = (ctx: RequestContext<{ storeId: string; orderId: string }, unknown, unknown>) =>
    orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
  const one = async (ctx: Ctx, o: StoreOrder) => (await details(ctx, [o], true))[0];

  return defineRoutes([
    route({
      operationId: 'createStoreOrder',
      method: 'post',
      path: `${BASE}/:storeId`,
      ...byCaller(TAG, 'orders.manage', false),
      summary: "Create a store order; its items are split into parts (the store's own, and one per supplier connection)",
      params: params(['storeId']),
      body: object(
        {
          items: {
            type: 'array',
            minItems: 1,
            maxItems: 200,
            items: object({ productId: uuid, variantId: uuid, quantity: { type: 'integer', minimum: 1, maximum: 10000 } }, [
              'productId',
              'variantId',
              'quantity',
            ]),
          },
          destination: destinationSchema,
          paymentMethod: { enum: ['online', 'cashOnDelivery', 'manual'] },
          contractModel: { enum: ['standard', 'promiseToSell'], default: 'standard' },
        },
        ['items', 'destination', 'paymentMethod'],
      ),
      response: { status: 201, schema: orderSchema },
      // The order and its key commit together: a first answer lost is rebuilt from the order, never made twice.
      idempotent: { recover: async (ctx, orderId) => one(ctx, (await orders.byId(ctx.params.storeId, orderId))!) },
      handler: async (ctx) => one(ctx, await orders.create(ctx.params.storeId, ctx.body, creatorOf(ctx.caller!), (tx, id) => ctx.idempotency.made(tx, id))),
    }),
    route({
      operationId: 'listStoreOrders',
      method: 'get',
      path: `${BASE}/:storeId`,
      summary:
        'Store orders, newest first; each carries a summary of its parts; needsAttention=true keeps orders with a part (or the payment) needing attention',
      description:
        '`customer` keeps the orders whose delivery name or e-mail contains it (letter case aside). It searches customer data, so it needs `customers.view` as well: without it the answer is 403 `permissionDenied`.',
      ...byCaller(TAG, 'orders.view', true),
      params: params(['storeId']),
      query: object({
        ...pageQuery,
        needsAttention: { type: 'boolean' },
        status: { enum: [...STORE_ORDER_STATUSES] },
        customer: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Part of the delivery name or e-mail, letter case aside (needs customers.view)',
        },
      }),
      response: { status: 200, schema: pageOf(orderSchema) },
      async handler(ctx) {
        const showCustomer = !!ctx.store?.permissions.has('customers.view');
        // Which orders match would tell a caller without customers.view who bought what: the search is theirs only.
        if (ctx.query.customer !== undefined && !showCustomer) throw errors.permissionDenied('customers.view');
        // One statement: the page, its parts and their summary (server/orders/queries.ts).
        return listQueries.list(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query, showCustomer);
      },
    }),
    route({
      operationId: 'getStoreOrder',
      method: 'get',
      path: `${BASE}/:storeId/:orderId`,
      ...byCaller(TAG, 'orders.view', true),
      summary: 'Order details with its parts; for a caller who also holds suppliers.view, its supplier orders with costs',
      params: orderParams,
      response: { status: 200, schema: orderSchema },
      handler: async (ctx) => one(ctx, await load(ctx)),
    }),
    route({
      operationId: 'confirmStoreOrder',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/confirm`,
      ...byCaller(TAG, 'orders.manage', false),
      idempotent: true,
      summary: 'Confirm the order (staff); supplier parts under an automatic level are then sent in the background',
      description:
        'Answers once the confirmation is stored; it never waits for a supplier. The supplier orders of automatic parts appear (status queued, then onwards) as the dispatch jobs run.',
      params: orderParams,
      response: { status: 200, schema: orderSchema },
      handler: async (ctx) => one(ctx, await orders.confirm(await load(ctx), actorOf(ctx.caller!))),
    }),
    ...storeOrderPaymentRoutes(payments, load, one, orderSchema),
    route({
      operationId: 'shipStoreOrderPart',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/groups/:groupKey/ship`,
      ...byCaller(TAG, 'orders.manage', false),
      summary: 'The store hands a part it fulfils itself to a carrier',
      params: partParams,
      body: object({ carrier: { type: 'string', minLength: 1, maxLength: 100 }, trackingNumber: { type: 'string', minLength: 1, maxLength: 100 } }, [
        'carrier',
        'trackingNumber',
      ]),
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        // `:groupKey` is the path's (wire) name of the part key.
        await orders.shipOwnPart(await load(ctx), ctx.params.groupKey, 'shipped', ctx.body);
        return one(ctx, await load(ctx));
      },
    }),
    route({
      operationId: 'deliverStoreOrderPart',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/groups/:groupKey/deliver`,
      ...byCaller(TAG, 'orders.manage', false),
      summary: 'A part the store fulfils itself was delivered',
      params: partParams,
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        // `:groupKey` is the path's (wire) name of the part key.
        await orders.shipOwnPart(await load(ctx), ctx.params.groupKey, 'delivered');
        return one(ctx, await load(ctx));
      },
    }),
  ]);
}
