import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { SupplierConnection, SupplierGateway } from '../../connections';
import { orSupplierFailure } from '../../connections/http-errors';
import type { Actor } from '../../identity/permissions';
import { ApiError, errors } from '../../platform/errors';
import { takesClaims, type Money } from '../../suppliers/adapter';
import type { SupplierOrderRecords } from '../records';
import type { ClaimQueue } from '../queues';
import { claimById, claimsOfOrder, insertClaim, itemsOfPart } from '../sql/claims';
import type { SupplierOrder } from '../supplier-order';
import type { ClaimOutcomes } from './outcome';
import type { Claim, ClaimExpectation, ClaimItem, ClaimReason } from './types';
import { claimDetails } from './views';

export interface ClaimRequest {
  reason: ClaimReason;
  expectation: ClaimExpectation;
  items: Array<{ itemId: string; quantity: number }>;
  message?: string;
  evidence?: string[];
}

/** A person's record of what the supplier decided on a claim they sent: `amount` with refunded, `message` with rejected. */
export interface OutcomeRequest {
  outcome: 'refunded' | 'reshipped' | 'rejected';
  amount?: Money;
  supplierOrderId?: string;
  message?: string;
}

/** Who asks, and on whose authority the claim acts later. */
export interface Requester {
  actor: Actor;
  accountId: string;
  keyId: string | null;
}

const DAY = 86_400_000;
/** A parcel is claimed once it left: shipped or delivered, or paused after it shipped (a late cancel). */
const claimable = (so: SupplierOrder) => so.status === 'shipped' || so.status === 'delivered' || (so.status === 'needsReview' && !!so.shipping);
const invalid = (details: Array<{ field: string; message: string }>) =>
  new ApiError(422, 'claimInvalid', "Some of the claim's items cannot be claimed on this supplier order.", details);

/**
 * What a caller asks of claims (docs/decisions.md, "Claims with the supplier"): open one (its items checked against the
 * part, the supplier's limits asked before anything is recorded), record a person's outcome, withdraw one.
 */
export class ClaimCommands {
  constructor(
    private readonly db: DataSource,
    private readonly records: SupplierOrderRecords,
    private readonly gateway: Pick<SupplierGateway, 'call' | 'adapterFor'>,
    private readonly outcomes: ClaimOutcomes,
    private readonly queue: ClaimQueue,
  ) {}

  /** How claims reach this supplier, and where a person sends them. */
  capability(supplierKey: string) {
    return this.gateway.adapterFor(supplierKey).entry.capabilities.claims;
  }

  list(so: SupplierOrder): Promise<Claim[]> {
    return claimsOfOrder(this.db, so.storeId, so.id);
  }

  async get(so: SupplierOrder, claimId: string): Promise<Claim> {
    const c = await claimById(this.db, so.storeId, claimId);
    if (!c || c.supplierOrderId !== so.id) throw errors.notFound('The claim');
    return c;
  }

  async open(so: SupplierOrder, body: ClaimRequest, by: Requester): Promise<Claim> {
    if (!claimable(so) || !so.supplierOrderId)
      throw errors.invalidState(`Only a supplier order the supplier shipped can be claimed; this one is ${so.status}.`);
    const items = await this.itemsOf(so, body.items);
    const conn = await this.records.connection(so.storeId, so.connectionId);
    if (!conn) throw errors.notFound("The supplier order's connection");
    const cap = this.capability(conn.supplierKey);
    if (cap.via === 'api') await this.checkTerms(conn, so, items, body.expectation);
    const now = Date.now();
    const from = cap.counted === 'fromClaim' ? now : Date.parse(so.delivery?.shippedAt ?? so.shipping?.shippedAt ?? new Date(now).toISOString());
    const claim: Claim = {
      id: crypto.randomUUID(),
      storeId: so.storeId,
      supplierOrderId: so.id,
      orderId: so.orderId,
      connectionId: so.connectionId,
      supplierKey: so.supplierKey,
      via: cap.via,
      reason: body.reason,
      expectation: body.expectation,
      items,
      message: body.message ?? '',
      evidence: body.evidence ?? [],
      status: cap.via === 'api' ? 'sending' : 'withPerson',
      supplierClaimId: null,
      supplierStatus: null,
      outcome: null,
      deadline: cap.via === 'person' && cap.deadlineDays ? new Date(from + cap.deadlineDays * DAY) : null,
      cancelRequested: false,
      createdByAccountId: by.accountId,
      createdByKeyId: by.keyId,
      actor: by.actor,
      createdAt: new Date(now),
      updatedAt: new Date(now),
      closedAt: null,
    };
    const made = await this.insert(claim, so);
    if (made.via === 'api') await this.queue.request(made);
    return made;
  }

  /** A person's claim: what the supplier decided, as the person records it. */
  async recordOutcome(claim: Claim, body: OutcomeRequest, actor: Actor): Promise<Claim> {
    if (claim.via !== 'person' || claim.status !== 'withPerson')
      throw errors.invalidState(
        claim.via === 'api' ? "The service follows this claim with the supplier; its outcome is the supplier's." : 'This claim has its outcome already.',
      );
    const at = new Date().toISOString();
    const needs = body.outcome === 'refunded' && !body.amount ? 'amount' : body.outcome === 'rejected' && !body.message ? 'message' : null;
    if (needs) throw errors.validationFailed([{ field: `body/${needs}`, message: `is required with the outcome ${body.outcome}` }]);
    if (body.outcome === 'refunded') return this.outcomes.refunded(claim, body.amount!, actor);
    if (body.outcome === 'rejected') return this.outcomes.close(claim, { kind: 'rejected', message: body.message!, at, by: actor }, actor);
    // The supplier reships under its own order (Printful's reshipment of the same order): nothing is placed here.
    return this.outcomes.close(claim, { kind: 'reshipped', supplierOrderId: null, supplierSideOrderId: body.supplierOrderId ?? null, at, by: actor }, actor);
  }

  /** Withdraws a claim: a person's at once; one sent through the API by the supplier's cancel, where it allows one. */
  async cancel(claim: Claim, actor: Actor): Promise<Claim> {
    if (claim.status === 'closed') throw errors.invalidState('This claim has its outcome already.');
    if (claim.status === 'withPerson') return this.outcomes.close(claim, { kind: 'cancelled', at: new Date().toISOString(), by: actor }, actor);
    if (typeof this.gateway.adapterFor(claim.supplierKey).cancelClaim !== 'function')
      throw errors.conflict('claimNotCancellable', 'This supplier does not let a claim be withdrawn through its API; withdraw it at the supplier.');
    if (claim.cancelRequested) return claim;
    const asked = await this.outcomes.record(claim, { cancelRequested: true }, 'claimUpdated', actor);
    await this.queue.request(asked);
    return asked;
  }

  /** The claimed items, each an item of the part and within its quantity (one entry per item). */
  private async itemsOf(so: SupplierOrder, asked: ClaimRequest['items']): Promise<ClaimItem[]> {
    const part = await itemsOfPart(this.db, so.storeId, so.orderId, so.partKey);
    const details: Array<{ field: string; message: string }> = [];
    const items = asked.flatMap((a, n) => {
      const found = part.find((p) => p.id === a.itemId);
      if (!found || !found.supplierVariantId) details.push({ field: `body/items/${n}/itemId`, message: 'is not an item of this supplier order' });
      else if (a.quantity > found.quantity) details.push({ field: `body/items/${n}/quantity`, message: `is more than the ${found.quantity} ordered` });
      else if (asked.findIndex((x) => x.itemId === a.itemId) !== n) details.push({ field: `body/items/${n}/itemId`, message: 'is named twice' });
      return found?.supplierVariantId ? [{ itemId: found.id, sku: found.sku, supplierVariantId: found.supplierVariantId, quantity: a.quantity }] : [];
    });
    if (details.length) throw invalid(details);
    return items;
  }

  /** Asked of the supplier before anything is recorded: each line open to a claim, the expectation offered, the amount within its most. */
  private async checkTerms(conn: SupplierConnection, so: SupplierOrder, items: ClaimItem[], expectation: ClaimExpectation): Promise<void> {
    const lines = [...new Map(items.map((i) => [i.supplierVariantId, 0])).keys()].map((variantId) => ({
      variantId,
      quantity: items.filter((i) => i.supplierVariantId === variantId).reduce((n, i) => n + i.quantity, 0),
    }));
    const terms = await orSupplierFailure(this.gateway.call(conn, (a, ctx) => a.claimTerms!(ctx, so.supplierOrderId!, lines)));
    const refused = lines.flatMap((l) => {
      const t = terms.lines.find((x) => x.variantId === l.variantId);
      if (!t || !t.canChoose) return [{ field: l.variantId, message: 'the supplier takes no claim on it now (one is open already, or it is not claimable)' }];
      return t.openQuantity < l.quantity ? [{ field: l.variantId, message: `only ${t.openQuantity} of it are still open to a claim at the supplier` }] : [];
    });
    if (refused.length) throw new ApiError(409, 'claimNotAllowed', 'The supplier does not take this claim now.', refused);
    if (!terms.expectations.includes(expectation))
      throw new ApiError(409, 'claimNotAllowed', `The supplier offers ${terms.expectations.join(' or ') || 'nothing'} for these items, not a ${expectation}.`);
    const priced = lines.map((l) => ({ ...l, price: terms.lines.find((x) => x.variantId === l.variantId)!.unitPrice }));
    const max = terms.maxAmount;
    // Compared only in one currency: the supplier prices its lines and its limit alike (a mix is not compared as numbers).
    if (max && priced.every((p) => p.price.currency === max.currency)) {
      const claimed = priced.reduce((n, p) => n + p.price.amountMinor * p.quantity, 0);
      if (claimed > max.amountMinor)
        throw new ApiError(
          409,
          'claimAboveLimit',
          `The claim is worth ${claimed} ${max.currency} (minor units); the supplier takes claims up to ${max.amountMinor} on this order.`,
        );
    }
  }

  /** The claim and its history entry on the supplier order (claimOpened, with its event), in one transaction. */
  private async insert(claim: Claim, so: SupplierOrder): Promise<Claim> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction(async (tx) => {
          const made = await insertClaim(tx, claim);
          await this.records.change(so, { type: 'claimRecorded', actor: claim.actor, kind: 'claimOpened', details: { claim: claimDetails(made) } }, tx);
          return made;
        });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'concurrentChange') || attempt >= 4) throw err;
        so = await this.records.loadOrFail(so.id, so.storeId);
      }
    }
  }
}
