/** The sandbox supplier's claims API (docs/suppliers/sandbox.md, "Claims"): terms, open under our key, find by it, read, cancel. */
import type { ClaimInput, ClaimLine, ClaimTerms, SupplierCallContext, SupplierClaimSnapshot } from '../adapter';
import { asObj } from '../http';
import { type Answer, type Call, okBody, segment } from './http';
import { list, readClaim, readClaimTerms } from './readers';

type Send = (ctx: SupplierCallContext, call: Omit<Call, 'token' | 'timeoutMs' | 'secrets'>) => Promise<Answer>;

export function sandboxClaims(send: Send) {
  const path = (id: string) => `/v1/claims/${segment(id, { supplierClaimId: id })}`;
  return {
    async terms(ctx: SupplierCallContext, supplierOrderId: string, lines: ClaimLine[]): Promise<ClaimTerms> {
      return okBody(await send(ctx, { method: 'POST', path: '/v1/claims/terms', body: { orderId: supplierOrderId, lines } }), readClaimTerms, {
        supplierOrderId,
      });
    },
    /** Never retried here: after a time-out the claim may exist, and the caller looks it up by its key. */
    async open(ctx: SupplierCallContext, input: ClaimInput): Promise<SupplierClaimSnapshot> {
      const body = {
        orderId: input.supplierOrderId,
        claimKey: input.claimKey,
        reason: input.reason,
        expectation: input.expectation,
        lines: input.lines,
        message: input.message,
        evidence: input.evidence,
      };
      return okBody(await send(ctx, { method: 'POST', path: '/v1/claims', body }), (b) => readClaim(b), { supplierOrderId: input.supplierOrderId });
    },
    async find(ctx: SupplierCallContext, claimKey: string): Promise<SupplierClaimSnapshot | null> {
      return okBody(await send(ctx, { method: 'GET', path: '/v1/claims', query: { claimKey } }), (b) => {
        const items = list(asObj(b, 'claims'), 'items', 'claims');
        return items.length ? readClaim(items[0], 'claims.items[0]') : null;
      });
    },
    async get(ctx: SupplierCallContext, id: string): Promise<SupplierClaimSnapshot> {
      return okBody(await send(ctx, { method: 'GET', path: path(id) }), (b) => readClaim(b), { supplierClaimId: id });
    },
    async cancel(ctx: SupplierCallContext, id: string): Promise<SupplierClaimSnapshot> {
      return okBody(await send(ctx, { method: 'POST', path: `${path(id)}/cancel` }), (b) => readClaim(b), { supplierClaimId: id });
    },
  };
}
