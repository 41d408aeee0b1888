import { actorOf } from '../identity/permissions';
import { byCaller, defineRoutes, route } from '../platform/http/route';
import { object, uuid } from '../platform/http/schemas';
import { DELIVERY_ATTENTION_REASONS } from '../platform/vocabulary/delivery';
import type { DispatchCommands } from './commands';
import { answering, BASE, preferHeader, settled, soParams, stillWorking, TAG } from './route-parts';
import { supplierOrderSchema } from './schemas';
import type { SupplierOrderReads } from './views';

/** What a person or workflow does to one supplier order: retry, reroute, acknowledge its delivery attention, pay, cancel. */
export function supplierOrderActionRoutes(commands: DispatchCommands, reads: SupplierOrderReads) {
  const { showCustomer, opts, answer, load } = answering(reads);
  return defineRoutes([
    route({
      operationId: 'retrySupplierOrder',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/retry`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.orders.manage',
      planGated: true,
      readOnly: false,
      idempotent: true,
      summary: 'Try a queued, paused or failed supplier order again',
      params: soParams,
      headers: [preferHeader],
      body: object({ acceptCost: { type: 'boolean', description: "Accept the supplier's new cost after a price change; recorded as the caller's decision" } }),
      response: settled,
      extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.retry(await load(ctx), actorOf(ctx.caller!), !!ctx.body.acceptCost, opts(ctx))),
    }),
    route({
      operationId: 'rerouteSupplierOrder',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/reroute`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.orders.manage',
      planGated: true,
      readOnly: false,
      idempotent: true,
      summary: "Send a paused supplier order's items to a backup supplier (the link's alternates, in order, or the one named)",
      description:
        'Only once the supplier provably holds no live order for them (its create was refused, a look-up finds none, or it confirms the cancel). Never to a supplier the part was at before, unless named. Answers the paused order: status cancelled with a `rerouted` history entry (from, to, reason, costDifferenceMinor, landed) when an alternate took the items; still needsReview, its reviewMessage listing the alternates tried, when none could.',
      params: soParams,
      headers: [preferHeader],
      body: object({
        connectionId: {
          ...uuid,
          description:
            "Reroute to this connection only: an alternate of the items, or their link's own supplier (one the part left may be named); left out: each alternate in order",
        },
      }),
      response: settled,
      extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.reroute(await load(ctx), actorOf(ctx.caller!), ctx.body.connectionId ?? null, opts(ctx))),
    }),
    route({
      operationId: 'acknowledgeDeliveryAttention',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/delivery-attention/acknowledge`,
      ...byCaller(TAG, 'suppliers.orders.manage', false),
      summary: "Acknowledge a sent order's delivery attention, naming the reason seen (409 attentionChanged when it changed meanwhile)",
      description:
        'The attention clears; its reason is not raised again until its threshold passes anew (an exception: until a new carrier scan reports one). Another reason that holds is raised at once. The status never changes.',
      params: soParams,
      body: object({ reason: { enum: [...DELIVERY_ATTENTION_REASONS] } }, ['reason']),
      response: { status: 200, schema: supplierOrderSchema },
      handler: async (ctx) => (await reads.views([await commands.acknowledge(await load(ctx), actorOf(ctx.caller!), ctx.body.reason)], showCustomer(ctx)))[0],
    }),
    route({
      operationId: 'paySupplierOrder',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/pay`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.orders.manage',
      planGated: true,
      readOnly: false,
      idempotent: true,
      summary: 'Pay a supplier order that was created but not paid; one already paid at the supplier is recorded, not paid again',
      params: soParams,
      headers: [preferHeader],
      response: settled,
      extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.pay(await load(ctx), actorOf(ctx.caller!), opts(ctx))),
    }),
    route({
      operationId: 'cancelSupplierOrder',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/cancel`,
      ...byCaller(TAG, 'suppliers.orders.manage', false),
      idempotent: true,
      summary: 'Withdraw the order at the supplier where it still allows it; after the supplier shipped it pauses with supplierAlreadyShipped',
      description:
        'Taken at once, also while a reroute of the order is under way (the reroute ends). An order whose items a routing or reroute moved on is followed: the order that holds them now is cancelled, at its supplier too, and answered.',
      params: soParams,
      headers: [preferHeader],
      response: settled,
      extraResponses: [stillWorking],
      handler: async (ctx) => answer(ctx, await commands.cancel(await load(ctx), actorOf(ctx.caller!), opts(ctx))),
    }),
  ]);
}
