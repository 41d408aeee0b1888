import { actorOf, ownRecordsKeyId } from '../../identity/permissions';
import { byCaller, defineRoutes, Reply, type RequestContext, route } from '../../platform/http/route';
import { object, params } from '../../platform/http/schemas';
import type { SupplierOrderReads } from '../views';
import type { ClaimCommands } from './service';
import { claimSchema, openClaimBody, outcomeBody } from './schemas';
import type { Claim } from './types';
import { claimView } from './views';
import type { SupplierOrder } from '../supplier-order';

const BASE = '/api/store-suppliers';
const TAG = 'Claims';
const soParams = params(['storeId', 'supplierOrderId']);
const claimParams = params(['storeId', 'supplierOrderId', 'claimId']);

/** Claims with the supplier on a supplier order (docs/api.md, "Claims"). */
export function claimRoutes(claims: ClaimCommands, reads: Pick<SupplierOrderReads, 'get'>) {
  const load = (ctx: RequestContext<{ storeId: string; supplierOrderId: string }, unknown, unknown>) =>
    reads.get(ctx.params.storeId, ctx.params.supplierOrderId, ownRecordsKeyId(ctx.caller));
  const view = (c: Claim, so: SupplierOrder) => ({ ...claimView(c, so, claims.capability(so.supplierKey).where), integrationId: c.connectionId });

  return defineRoutes([
    route({
      operationId: 'openSupplierClaim',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/claims`,
      ...byCaller(TAG, 'claims.manage', false),
      idempotent: true,
      summary: 'Open a claim with the supplier for items of a shipped supplier order: a refund or a reship',
      description:
        "Where the supplier has a claims API (the sandbox, CJ) the claim is sent once, under its own id, then read back until the supplier decides (status sending, then open, then closed with its outcome); the supplier's limits are asked first (409 claimNotAllowed, 409 claimAboveLimit). Elsewhere (a supplier without a claims API) a person sends it: status withPerson, with the supplier's deadline and an evidence pack; record the outcome with .../outcome. A second claim on the same items is 409 claimExists.",
      params: soParams,
      body: openClaimBody,
      response: { status: 201, schema: claimSchema },
      async handler(ctx) {
        const so = await load(ctx);
        const made = await claims.open(so, ctx.body, { actor: actorOf(ctx.caller!), accountId: ctx.caller!.accountId, keyId: ctx.caller!.apiKey?.id ?? null });
        return new Reply(201, view(made, so));
      },
    }),
    route({
      operationId: 'listSupplierClaims',
      method: 'get',
      path: `${BASE}/:storeId/orders/:supplierOrderId/claims`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: "A supplier order's claims, oldest first",
      params: soParams,
      response: { status: 200, schema: object({ items: { type: 'array', items: claimSchema } }, ['items']) },
      async handler(ctx) {
        const so = await load(ctx);
        return { items: (await claims.list(so)).map((c) => view(c, so)) };
      },
    }),
    route({
      operationId: 'getSupplierClaim',
      method: 'get',
      path: `${BASE}/:storeId/orders/:supplierOrderId/claims/:claimId`,
      ...byCaller(TAG, 'suppliers.view', true),
      summary: 'One claim with the supplier',
      params: claimParams,
      response: { status: 200, schema: claimSchema },
      async handler(ctx) {
        const so = await load(ctx);
        return view(await claims.get(so, ctx.params.claimId), so);
      },
    }),
    route({
      operationId: 'recordSupplierClaimOutcome',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/claims/:claimId/outcome`,
      ...byCaller(TAG, 'claims.manage', false),
      idempotent: true,
      summary: 'Record what the supplier decided on a claim a person sent (a supplier without a claims API)',
      description:
        "refunded (the supplier's amount and currency; the store's is converted at today's rate and recorded), reshipped (under the supplier's own order: nothing is placed here), or rejected with the supplier's words. 409 for a claim the service follows itself, or one that has its outcome.",
      params: claimParams,
      body: outcomeBody,
      response: { status: 200, schema: claimSchema },
      async handler(ctx) {
        const so = await load(ctx);
        const c = await claims.recordOutcome(await claims.get(so, ctx.params.claimId), ctx.body, actorOf(ctx.caller!));
        return view(c, so);
      },
    }),
    route({
      operationId: 'cancelSupplierClaim',
      method: 'post',
      path: `${BASE}/:storeId/orders/:supplierOrderId/claims/:claimId/cancel`,
      ...byCaller(TAG, 'claims.manage', false),
      summary: "Withdraw a claim: at once for a person's; at the supplier where it allows it (409 claimNotCancellable where not)",
      params: claimParams,
      response: { status: 200, schema: claimSchema },
      async handler(ctx) {
        const so = await load(ctx);
        return view(await claims.cancel(await claims.get(so, ctx.params.claimId), actorOf(ctx.caller!)), so);
      },
    }),
  ]);
}
