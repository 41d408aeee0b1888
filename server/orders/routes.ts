import { actorOf, creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { defineRoutes, route, RequestContext } from '../platform/http/route';
import { currency, destinationSchema, minorUnits, object, pageOf, pageQuery, params, uuid } from '../platform/http/schemas';
import type { JsonSchema } from '../platform/http/route';
import type { StoreOrder } from './types';
import { groupParams, orderParams, orderSchemaWith } from './schemas';
import type { OrderPayments } from './payments';
import type { OrderService } from './service';
import type { StoreOrderQueries } from './queries';

const BASE = '/api/store-orders';
const TAG = 'Store orders';
type Ctx = RequestContext<{ storeId: string }, unknown, unknown>;

/**
 * The supplier orders behind some store orders, as the supplier-order routes show them: the dispatch domain's reader,
 * injected (orders imports nothing of dispatch), with the schema of one supplier order for the document.
 */
export interface SupplierOrdersOfOrders {
  schema: JsonSchema;
  ofOrders(orderIds: string[], showCustomer: boolean): Promise<Array<{ orderId: string } & Record<string, unknown>>>;
}

export function storeOrderRoutes(orders: OrderService, payments: OrderPayments, supplierOrders: SupplierOrdersOfOrders, listQueries: StoreOrderQueries) {
  const orderSchema = orderSchemaWith(supplierOrders.schema);
  /** Order details; supplier orders only for callers who also hold suppliers.view, the address only with customers.view. */
  async function details(ctx: Ctx, list: StoreOrder[], full: boolean) {
    const ids = list.map((o) => o.id);
    const groups = await orders.groups(ids);
    const canSeeSuppliers = !!ctx.store?.permissions.has('suppliers.view');
    const showCustomer = !!ctx.store?.permissions.has('customers.view');
    const soViews = canSeeSuppliers && full && ids.length ? await supplierOrders.ofOrders(ids, showCustomer) : [];
    const history = full ? await payments.history(ids) : new Map();
    const out = [];
    for (const o of list) {
      const items = full ? await orders.items(o.id) : [];
      const parts = groups.filter((g) => g.orderId === o.id);
      out.push({
        id: o.id,
        storeId: o.storeId,
        number: o.number,
        status: o.status,
        paymentMethod: o.paymentMethod,
        paymentStatus: o.paymentStatus,
        markedPaidAt: o.markedPaidAt ? o.markedPaidAt.toISOString() : null,
        contractModel: o.contractModel,
        currency: o.currency,
        totalMinor: o.totalMinor,
        needsAttention: o.needsAttention,
        paymentAttention: o.paymentAttention ? { reason: o.paymentAttention.reason, since: o.paymentAttention.since.toISOString() } : null,
        ...(full ? { payments: history.get(o.id) ?? [] } : {}),
        ...(showCustomer ? { destination: o.destination, destinationRedacted: false } : { destinationRedacted: true }),
        ...(full ? { items: items.map((i) => ({ id: i.id, productId: i.productId, variantId: i.variantId, sku: i.sku, title: i.title, quantity: i.quantity, unitPriceMinor: i.unitPriceMinor, groupKey: i.groupKey })) } : {}),
        fulfilmentGroups: parts.map((g) => ({
          groupKey: g.groupKey, connectionId: g.connectionId, status: g.status, fulfilledByStore: g.fulfilledByStore,
          items: full ? items.filter((i) => i.groupKey === g.groupKey).map((i) => i.id) : [], shipment: g.shipment,
        })),
        fulfilmentSummary: {
          parts: parts.length, shipped: parts.filter((g) => g.status === 'shipped' || g.status === 'delivered').length,
          delivered: parts.filter((g) => g.status === 'delivered').length, needingAttention: parts.filter((g) => g.needsAttention).length,
        },
        ...(canSeeSuppliers && full ? { supplierOrders: soViews.filter((s) => s.orderId === o.id) } : {}),
        confirmedAt: o.confirmedAt ? o.confirmedAt.toISOString() : null,
        createdAt: o.createdAt.toISOString(),
        updatedAt: o.updatedAt.toISOString(),
      });
    }
    return out;
  }

  const load = (ctx: RequestContext<{ storeId: string; orderId: string }, unknown, unknown>) => orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
  const one = async (ctx: Ctx, o: StoreOrder) => (await details(ctx, [o], true))[0];

  return defineRoutes([
    route({
      operationId: 'createStoreOrder',
      method: 'post',
      path: `${BASE}/:storeId`,
      summary: 'Create a store order; its items are split into parts (the store\'s own, and one per supplier connection)',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.manage',
      readOnly: false,
      params: params(['storeId']),
      body: object(
        {
          items: { type: 'array', minItems: 1, maxItems: 200, items: object({ productId: uuid, variantId: uuid, quantity: { type: 'integer', minimum: 1, maximum: 10000 } }, ['productId', 'variantId', 'quantity']) },
          destination: destinationSchema,
          paymentMethod: { enum: ['online', 'cashOnDelivery', 'manual'] },
          contractModel: { enum: ['standard', 'promiseToSell'], default: 'standard' },
        },
        ['items', 'destination', 'paymentMethod'],
      ),
      response: { status: 201, schema: orderSchema },
      async handler(ctx) {
        return one(ctx, await orders.create(ctx.params.storeId, ctx.body, creatorOf(ctx.caller!)));
      },
    }),
    route({
      operationId: 'listStoreOrders',
      method: 'get',
      path: `${BASE}/:storeId`,
      summary: 'Store orders, newest first; each carries a summary of its parts; needsAttention=true keeps orders with a part (or the payment) needing attention',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.view',
      readOnly: true,
      params: params(['storeId']),
      query: object({ ...pageQuery, needsAttention: { type: 'boolean' }, status: { enum: ['pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled'] } }),
      response: { status: 200, schema: pageOf(orderSchema) },
      async handler(ctx) {
        // One statement: the page, its parts and their summary (server/orders/queries.ts).
        return listQueries.list(ctx.params.storeId, ownRecordsKeyId(ctx.caller), ctx.query, !!ctx.store?.permissions.has('customers.view'));
      },
    }),
    route({
      operationId: 'getStoreOrder',
      method: 'get',
      path: `${BASE}/:storeId/:orderId`,
      summary: 'Order details with its parts; for a caller who also holds suppliers.view, its supplier orders with costs',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.view',
      readOnly: true,
      params: orderParams,
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        return one(ctx, await load(ctx));
      },
    }),
    route({
      operationId: 'confirmStoreOrder',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/confirm`,
      summary: 'Confirm the order (staff); supplier parts under an automatic level are then sent in the background',
      description: 'Answers once the confirmation is stored; it never waits for a supplier. The supplier orders of automatic parts appear (status queued, then onwards) as the dispatch jobs run.',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.manage',
      readOnly: false,
      params: orderParams,
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        return one(ctx, await orders.confirm(await load(ctx), actorOf(ctx.caller!)));
      },
    }),
    route({
      operationId: 'markStoreOrderPaid',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/mark-paid`,
      summary: 'Mark the order paid by hand (cash, bank transfer): confirms it; recorded as manual, not as the payment provider\'s word',
      description:
        'The shopper\'s `paymentStatus` moves only on the payment provider\'s signed notifications (POST /api/payment-notifications/:storeId). A manual mark confirms the order and shows in its payment history with who made it, but does not count as provider-confirmed for automatic supplier payment: that still needs the connection\'s allowUnpaidOrders (orders without online payment) or payNow. 409 when the provider already reported the order paid or refunded; marking twice changes nothing.',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.manage',
      readOnly: false,
      params: orderParams,
      body: object({ reference: { type: 'string', maxLength: 200, description: 'A receipt or transfer reference' }, amountMinor: minorUnits }),
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        await payments.markPaid(await load(ctx), ctx.body ?? {}, actorOf(ctx.caller!));
        return one(ctx, await load(ctx));
      },
    }),
    route({
      operationId: 'shipStoreOrderPart',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/groups/:groupKey/ship`,
      summary: 'The store hands a part it fulfils itself to a carrier',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.manage',
      readOnly: false,
      params: groupParams,
      body: object({ carrier: { type: 'string', minLength: 1, maxLength: 100 }, trackingNumber: { type: 'string', minLength: 1, maxLength: 100 } }, ['carrier', 'trackingNumber']),
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        await orders.shipOwnPart(await load(ctx), ctx.params.groupKey, 'shipped', ctx.body);
        return one(ctx, await load(ctx));
      },
    }),
    route({
      operationId: 'deliverStoreOrderPart',
      method: 'post',
      path: `${BASE}/:storeId/:orderId/groups/:groupKey/deliver`,
      summary: 'A part the store fulfils itself was delivered',
      tag: TAG,
      auth: 'caller',
      permission: 'orders.manage',
      readOnly: false,
      params: groupParams,
      response: { status: 200, schema: orderSchema },
      async handler(ctx) {
        await orders.shipOwnPart(await load(ctx), ctx.params.groupKey, 'delivered');
        return one(ctx, await load(ctx));
      },
    }),
  ]);
}
