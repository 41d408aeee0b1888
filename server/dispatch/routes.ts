import { actorOf, ownRecordsKeyId } from '../identity/permissions';
import { errors } from '../platform/errors';
import { defineRoutes, route, Reply, RequestContext } from '../platform/http/route';
import { object, pageOf, params, uuid } from '../platform/http/schemas';
import type { OrderService } from '../orders';
import type { CommandOptions, DispatchCommands, Outcome } from './commands';
import { supplierOrderSchema } from './schemas';
import { SUPPLIER_ORDER_STATUSES } from './state-machine';
import { DELIVERY_ATTENTION_REASONS } from '../platform/vocabulary/delivery';
import type { SupplierOrderReads } from './views';

const BASE = '/api/store-suppliers';
const TAG = 'Supplier orders';
const groupParams = object({ storeId: uuid, orderId: uuid, groupKey: { type: 'string', pattern: '^(store|supplier:[0-9a-fA-F-]{36}(:[0-9a-fA-F-]{36})?)$' } }, ['storeId', 'orderId', 'groupKey']);
const soParams = params(['storeId', 'supplierOrderId']);
const settled = {
  status: 200,
  schema: supplierOrderSchema,
  description:
    'The supplier order once the dispatch job acted on it (the service waits up to DISPATCH_WAIT_MS, woken the moment the record changes); a paused one (status needsReview, with reviewReason, reviewMessage and retryable) also answers 200',
};
const stillWorking: [number, { description: string; content: unknown }] = [
  202,
  {
    description: 'The job had not finished within the wait, or the request asked not to wait (`Prefer: respond-async`): the supplier order as it is now; read it again to follow it',
    content: { 'application/json': { schema: { type: 'object', properties: { result: supplierOrderSchema }, required: ['result'] } } },
  },
];
const preferHeader = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description: '`respond-async`: answer 202 at once with the supplier order as it is (status queued while the job waits), instead of waiting for the job',
  schema: { type: 'string', maxLength: 200 },
};

type Ctx = RequestContext<{ storeId: string }, unknown, unknown>;

/** RFC 7240: the caller prefers an answer at once to waiting for the job. */
function prefersAsync(headers: Record<string, string | string[] | undefined>): boolean {
  const v = headers.prefer;
  return (Array.isArray(v) ? v.join(',') : (v ?? '')).split(/[,;]/).some((p) => p.trim().toLowerCase() === 'respond-async');
}

export function supplierOrderRoutes(commands: DispatchCommands, reads: SupplierOrderReads, orders: OrderService) {
  const showCustomer = (ctx: Ctx) => !!ctx.store?.permissions.has('customers.view');
  const opts = (ctx: Ctx): CommandOptions => ({ respondAsync: prefersAsync(ctx.headers) });
  const answer = async (ctx: Ctx, out: Outcome) => {
    const [view] = await reads.views([out.so], showCustomer(ctx));
    return new Reply(out.settled ? 200 : 202, view);
  };
  const load = (ctx: RequestContext<{ storeId: string; supplierOrderId: string }, unknown, unknown>) => reads.get(ctx.params.storeId, ctx.params.supplierOrderId, ownRecordsKeyId(ctx.caller));

  return defineRoutes([
    route({
      operationId: 'listSupplierOrders', method: 'get', path: `${BASE}/:storeId/orders`, tag: TAG, auth: 'caller', permission: 'suppliers.view', readOnly: true,
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
      operationId: 'getSupplierOrder', method: 'get', path: `${BASE}/:storeId/orders/:supplierOrderId`, tag: TAG, auth: 'caller', permission: 'suppliers.view', readOnly: true,
      summary: 'One supplier order with its history',
      params: soParams, response: { status: 200, schema: supplierOrderSchema },
      handler: async (ctx) => (await reads.views([await load(ctx)], showCustomer(ctx)))[0],
    }),
    route({
      operationId: 'submitOrderPart', method: 'post', path: `${BASE}/:storeId/orders/:orderId/groups/:groupKey/submit`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', planGated: true, credits: { action: 'supplierOrder.send', price: 3, when: 'recordCreated' }, readOnly: false,
      idempotent: true,
      summary: 'Send one part of an order to its supplier now; called twice it still makes one supplier order',
      description: 'Charged once per supplier order made: a part that already has one answers it and charges nothing.',
      params: groupParams, headers: [preferHeader],
      body: object({ payNow: { type: 'boolean', description: 'Also pay as soon as it is created, skipping the check that the shopper paid; recorded in the history' } }),
      response: settled, extraResponses: [stillWorking],
      async handler(ctx) {
        const order = await orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
        return answer(ctx, await commands.submit(order, ctx.params.groupKey, actorOf(ctx.caller!), !!ctx.body.payNow, { ...opts(ctx), charge: (tx) => ctx.credits.chargeInTransaction(tx) }));
      },
    }),
    route({
      operationId: 'retrySupplierOrder', method: 'post', path: `${BASE}/:storeId/orders/:supplierOrderId/retry`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', planGated: true, readOnly: false,
      idempotent: true,
      summary: 'Try a queued, paused or failed supplier order again',
      params: soParams, headers: [preferHeader],
      body: object({ acceptCost: { type: 'boolean', description: 'Accept the supplier\'s new cost after a price change; recorded as the caller\'s decision' } }),
      response: settled, extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.retry(await load(ctx), actorOf(ctx.caller!), !!ctx.body.acceptCost, opts(ctx))),
    }),
    route({
      operationId: 'rerouteSupplierOrder', method: 'post', path: `${BASE}/:storeId/orders/:supplierOrderId/reroute`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', planGated: true, readOnly: false,
      idempotent: true,
      summary: 'Send a paused supplier order\'s items to a backup supplier (the link\'s alternates, in order, or the one named)',
      description:
        'Only once the supplier provably holds no live order for them (its create was refused, a look-up finds none, or it confirms the cancel). Never to a supplier the part was at before, unless named. Answers the paused order: status cancelled with a `rerouted` history entry (from, to, reason, costDifferenceMinor, landed) when an alternate took the items; still needsReview, its reviewMessage listing the alternates tried, when none could.',
      params: soParams, headers: [preferHeader],
      body: object({ connectionId: { ...uuid, description: "Reroute to this connection only: an alternate of the items, or their link's own supplier (one the part left may be named); left out: each alternate in order" } }),
      response: settled, extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.reroute(await load(ctx), actorOf(ctx.caller!), ctx.body.connectionId ?? null, opts(ctx))),
    }),
    route({
      operationId: 'acknowledgeDeliveryAttention', method: 'post', path: `${BASE}/:storeId/orders/:supplierOrderId/delivery-attention/acknowledge`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', readOnly: false,
      summary: "Acknowledge a sent order's delivery attention, naming the reason seen (409 attentionChanged when it changed meanwhile)",
      description: 'The attention clears; its reason is not raised again until its threshold passes anew (an exception: until a new carrier scan reports one). Another reason that holds is raised at once. The status never changes.',
      params: soParams, body: object({ reason: { enum: [...DELIVERY_ATTENTION_REASONS] } }, ['reason']), response: { status: 200, schema: supplierOrderSchema },
      handler: async (ctx) => (await reads.views([await commands.acknowledge(await load(ctx), actorOf(ctx.caller!), ctx.body.reason)], showCustomer(ctx)))[0],
    }),
    route({
      operationId: 'paySupplierOrder', method: 'post', path: `${BASE}/:storeId/orders/:supplierOrderId/pay`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', planGated: true, readOnly: false,
      idempotent: true,
      summary: 'Pay a supplier order that was created but not paid; one already paid at the supplier is recorded, not paid again',
      params: soParams, headers: [preferHeader], response: settled, extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.pay(await load(ctx), actorOf(ctx.caller!), opts(ctx))),
    }),
    route({
      operationId: 'cancelSupplierOrder', method: 'post', path: `${BASE}/:storeId/orders/:supplierOrderId/cancel`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', readOnly: false,
      idempotent: true,
      summary: 'Withdraw the order at the supplier where it still allows it; after the supplier shipped it pauses with supplierAlreadyShipped',
      description:
        'Taken at once, also while a reroute of the order is under way (the reroute ends). An order whose items a routing or reroute moved on is followed: the order that holds them now is cancelled, at its supplier too, and answered.',
      params: soParams, headers: [preferHeader], response: settled, extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.cancel(await load(ctx), actorOf(ctx.caller!), opts(ctx))),
    }),
    route({
      operationId: 'fulfilOrderPartManually', method: 'post', path: `${BASE}/:storeId/orders/:orderId/groups/:groupKey/fulfil-manually`, tag: TAG, auth: 'caller', permission: 'suppliers.orders.manage', readOnly: false,
      summary: 'Take a part over so the store ships it itself (its supplier order, if any, is cancelled)',
      params: groupParams, headers: [preferHeader],
      response: {
        status: 200,
        schema: object({ supplierOrder: { oneOf: [supplierOrderSchema, { type: 'null' }] }, part: { type: 'object' } }, ['supplierOrder', 'part']),
      },
      extraResponses: [stillWorking],
      async handler(ctx) {
        const order = await orders.get(ctx.params.storeId, ctx.params.orderId, ownRecordsKeyId(ctx.caller));
        const out = await commands.fulfilManually(order, ctx.params.groupKey, actorOf(ctx.caller!), opts(ctx));
        if (!out.group) throw errors.notFound('The order part');
        const so = out.so ? (await reads.views([out.so], showCustomer(ctx)))[0] : null;
        return new Reply(out.settled ? 200 : 202, { supplierOrder: so, part: { groupKey: out.group.groupKey, status: out.group.status, fulfilledByStore: out.group.fulfilledByStore, shipment: out.group.shipment } });
      },
    }),
  ]);
}
