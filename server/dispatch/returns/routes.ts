import { actorOf, ownRecordsKeyId } from '../../identity/permissions';
import { byCaller, defineRoutes, Reply, type RequestContext, route } from '../../platform/http/route';
import { object, params } from '../../platform/http/schemas';
import { errors } from '../../platform/errors';
import type { SupplierOrderReads } from '../views';
import type { ReturnCommands } from './service';
import { createReturnBody, returnSchema } from './schemas';
import type { PartReturn } from './types';
import { returnView } from './views';

const BASE = '/api/store-suppliers';
const TAG = 'Returns';
const soParams = params(['storeId', 'supplierOrderId']);
const returnParams = params(['storeId', 'supplierOrderId', 'returnId']);
type Ctx = RequestContext<{ storeId: string; supplierOrderId: string }, unknown, unknown>;

/** Returns on the store's side of a supplier order (docs/api.md, "Returns"). */
export function returnRoutes(returns: ReturnCommands, reads: Pick<SupplierOrderReads, 'get'>) {
  const load = (ctx: Ctx) => reads.get(ctx.params.storeId, ctx.params.supplierOrderId, ownRecordsKeyId(ctx.caller));
  const view = async (r: PartReturn) => returnView(r, await returns.money(r));
  const by = (ctx: Ctx) => ({ actor: actorOf(ctx.caller!), accountId: ctx.caller!.accountId, keyId: ctx.caller!.apiKey?.id ?? null });
  // Money leaves the store: a refund needs the permission the refund route needs, besides returns.manage.
  const mayRefund = (ctx: Ctx) => {
    if (!ctx.store?.permissions.has('payments.manage')) throw errors.permissionDenied('payments.manage');
  };

  return defineRoutes([
    route({
      operationId: 'recordSupplierOrderReturn',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/returns`,
      ...byCaller(TAG, 'returns.manage', false),
      idempotent: true,
      summary: "Record a return of items of a shipped supplier order, on the store's side: why, the claim it goes with, and the shopper's refund",
      description:
        "For a supplier order the supplier shipped or delivered, or one paused as supplierAlreadyShipped (a cancel that came too late: its `nextAction` names this route). Each item at most as many times as it was sent, across returns (409 alreadyReturned; 422 returnInvalid for an item not of the part, or a claim not of it). With `refund` (needs payments.manage too) the shopper is refunded through the store's payment provider, in part where it is part: checked against the order's payment first (409 nothingToRefund, refundExceedsPayment, providerApiKeyMissing; 400 for another currency), then recorded with the return under the return's own key, then asked of the provider under that key. 201 with `refund.status` requested, refused (with why), or sending (the answer was not had: ask again with .../refund, refunded once).",
      params: soParams,
      body: createReturnBody,
      response: { status: 201, schema: returnSchema },
      async handler(ctx) {
        if (ctx.body.refund) mayRefund(ctx);
        const so = await load(ctx);
        return new Reply(201, await view(await returns.create(so, ctx.body, by(ctx))));
      },
    }),
    route({
      operationId: 'listSupplierOrderReturns',
      method: 'get',
      path: `${BASE}/:storeId/orders/:supplierOrderId/returns`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "A supplier order's returns, oldest first",
      params: soParams,
      response: { status: 200, schema: object({ items: { type: 'array', items: returnSchema } }, ['items']) },
      async handler(ctx) {
        const so = await load(ctx);
        return { items: await Promise.all((await returns.list(so)).map(view)) };
      },
    }),
    route({
      operationId: 'getSupplierOrderReturn',
      method: 'get',
      path: `${BASE}/:storeId/orders/:supplierOrderId/returns/:returnId`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "One return, with its refund and its money (the refund, the supplier's credit on its claim, the net)",
      params: returnParams,
      response: { status: 200, schema: returnSchema },
      async handler(ctx) {
        const so = await load(ctx);
        return view(await returns.get(so, ctx.params.returnId));
      },
    }),
    route({
      operationId: 'sendSupplierOrderReturnRefund',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/returns/:returnId/refund`,
      ...byCaller(TAG, 'returns.manage', false),
      // Safe to send again by nature (the return's own key at the provider); keyed too, so the clients retry it.
      idempotent: true,
      summary: "Ask the payment provider again for a return's refund whose answer was not had (status sending), under the same key: it refunds once",
      description:
        'Needs payments.manage too. A refund requested or refused is answered as it is, nothing asked; 409 returnWithoutRefund for a return that refunds nothing.',
      params: returnParams,
      response: { status: 200, schema: returnSchema },
      async handler(ctx) {
        mayRefund(ctx);
        const so = await load(ctx);
        return view(await returns.sendAgain(await returns.get(so, ctx.params.returnId), by(ctx)));
      },
    }),
  ]);
}
