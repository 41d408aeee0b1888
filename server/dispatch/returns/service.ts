import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { OrderService, StoreOrder } from '../../orders';
import type { ShopperRefunds } from '../../payments/refunds';
import { ApiError, errors } from '../../platform/errors';
import type { Queryable } from '../../platform/db';
import { RETURN_REASON_WORDS } from '../../platform/vocabulary/returns';
import type { Requester } from '../claims/service';
import type { SupplierOrderRecords } from '../records';
import { claimById, itemsOfPart } from '../sql/claims';
import { claimCreditOf, insertReturn, lockPart, noteRefund, returnById, returnedOfPart, returnsOfPart, settleRefund } from '../sql/returns';
import type { SupplierOrder } from '../supplier-order';
import type { PartReturn, ReturnItem, ReturnReason } from './types';
import { returnDetails, type ReturnMoney } from './views';

export interface ReturnRequest {
  reason: ReturnReason;
  note?: string;
  items: Array<{ itemId: string; quantity: number }>;
  claimId?: string;
  refund?: { amountMinor: number; currency?: string };
}

type Refunds = Pick<ShopperRefunds, 'prepare' | 'refund'>;
type Part = Awaited<ReturnType<typeof itemsOfPart>>;

/** A part is returned once it left: shipped or delivered, or paused after it shipped (a cancel that came too late). */
export const returnable = (so: SupplierOrder) => so.status === 'shipped' || so.status === 'delivered' || (so.status === 'needsReview' && !!so.shipping);
const invalid = (details: Array<{ field: string; message: string }>) =>
  new ApiError(422, 'returnInvalid', "Some of the return's items cannot be returned on this supplier order.", details);

/**
 * Returns on the store's side (docs/decisions.md, "Returns on the store's side"): the items checked against what the
 * part sent and what its returns hold already, the claim against the part, the refund against the order's payments,
 * all before anything is recorded; then the return and its history entry in one transaction under the part's lock, and
 * the refund asked of the payment provider under the return's own key (recorded with it): asked again, it refunds once.
 */
export class ReturnCommands {
  constructor(
    private readonly db: DataSource,
    private readonly records: SupplierOrderRecords,
    private readonly orders: Pick<OrderService, 'get'>,
    private readonly refunds: Refunds,
  ) {}

  list(so: SupplierOrder): Promise<PartReturn[]> {
    return returnsOfPart(this.db, so.storeId, so.id);
  }

  async get(so: SupplierOrder, id: string): Promise<PartReturn> {
    const r = await returnById(this.db, so.storeId, id);
    if (!r || r.supplierOrderId !== so.id) throw errors.notFound('The return');
    return r;
  }

  /** The refund, the supplier's credit on the claim it goes with, and the net, in one currency (a credit in another is not counted). */
  async money(r: PartReturn): Promise<ReturnMoney> {
    const credit = r.claimId ? await claimCreditOf(this.db, r.storeId, r.claimId) : null;
    const currency = r.refund?.currency ?? credit?.currency ?? (await this.records.storeCurrency(r.storeId));
    const refundMinor = r.refund && r.refund.status !== 'refused' ? r.refund.amountMinor : 0;
    const supplierCreditMinor = credit && credit.currency === currency ? credit.amountMinor : null;
    return { currency, refundMinor, supplierCreditMinor, netMinor: (supplierCreditMinor ?? 0) - refundMinor };
  }

  async create(so: SupplierOrder, body: ReturnRequest, by: Requester): Promise<PartReturn> {
    if (!returnable(so)) throw errors.invalidState(`Only a supplier order the supplier shipped can be returned; this one is ${so.status}.`);
    const part = await itemsOfPart(this.db, so.storeId, so.orderId, so.partKey);
    const items = this.itemsOf(part, body.items, await returnedOfPart(this.db, so.storeId, so.id));
    if (body.claimId) {
      // Looked up in this store only: another store's claim is not found, as one of another part is refused.
      const claim = await claimById(this.db, so.storeId, body.claimId);
      if (!claim || claim.supplierOrderId !== so.id) throw invalid([{ field: 'body/claimId', message: 'is not a claim of this supplier order' }]);
    }
    let order: StoreOrder | null = null;
    let reference: string | null = null;
    if (body.refund) {
      order = await this.orders.get(so.storeId, so.orderId, null);
      // Every refusal the refund would meet (currency, nothing paid, more than is left, no key at the provider) before the return is recorded.
      reference = (await this.refunds.prepare(order, body.refund)).payment.reference;
    }
    const id = crypto.randomUUID();
    const now = new Date();
    const made = await this.insert(
      {
        id,
        storeId: so.storeId,
        supplierOrderId: so.id,
        orderId: so.orderId,
        reason: body.reason,
        note: body.note ?? '',
        items,
        claimId: body.claimId ?? null,
        refund: body.refund
          ? {
              amountMinor: body.refund.amountMinor,
              currency: order!.currency,
              status: 'sending',
              key: `return:${id}`,
              paymentReference: reference,
              message: null,
              requestedAt: null,
            }
          : null,
        createdByAccountId: by.accountId,
        createdByKeyId: by.keyId,
        actor: by.actor,
        createdAt: now,
        updatedAt: now,
      },
      so,
      part,
    );
    return made.refund ? this.send(made, order!, by) : made;
  }

  /** A refund whose answer was not had, asked again under the same key (the provider answers it as the first time); any other, as it is. */
  async sendAgain(r: PartReturn, by: Requester): Promise<PartReturn> {
    if (!r.refund) throw errors.conflict('returnWithoutRefund', 'This return refunds nothing to the shopper.');
    if (r.refund.status !== 'sending') return r;
    return this.send(r, await this.orders.get(r.storeId, r.orderId, null), by);
  }

  private async send(r: PartReturn, order: StoreOrder, by: Requester): Promise<PartReturn> {
    const refund = r.refund!;
    try {
      const answer = await this.refunds.refund(
        order,
        { amountMinor: refund.amountMinor, reason: `Return ${r.id}: ${RETURN_REASON_WORDS[r.reason]}` },
        by.actor,
        refund.key,
        refund.paymentReference,
      );
      return await this.settle(r, { status: 'requested', paymentReference: answer.paymentReference, message: null }, by);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Not known whether the provider refunded: kept `sending`, to be asked again under the same key.
      if (err.status >= 500) {
        await noteRefund(this.db, r, err.message);
        return (await returnById(this.db, r.storeId, r.id))!;
      }
      return this.settle(r, { status: 'refused', paymentReference: null, message: err.message }, by);
    }
  }

  /** The refund's answer with its history entry (returnUpdated), once: a second request that had the same answer reads the first's. */
  private async settle(r: PartReturn, to: Parameters<typeof settleRefund>[2], by: Requester): Promise<PartReturn> {
    const written = await this.inPart(r.storeId, r.supplierOrderId, async (tx, so) => {
      const moved = await settleRefund(tx, r, to);
      if (moved)
        await this.records.change(so, { type: 'returnRecorded', actor: by.actor, kind: 'returnUpdated', details: { return: returnDetails(moved) } }, tx);
      return moved;
    });
    return written ?? (await returnById(this.db, r.storeId, r.id))!;
  }

  /** The return and its history entry (returnRecorded, with its event), the items checked again under the part's lock. */
  private insert(r: PartReturn, so: SupplierOrder, part: Part): Promise<PartReturn> {
    return this.inPart(so.storeId, so.id, async (tx, now) => {
      this.itemsOf(
        part,
        r.items.map((i) => ({ itemId: i.itemId, quantity: i.quantity })),
        await returnedOfPart(tx, so.storeId, so.id),
      );
      const made = await insertReturn(tx, r);
      await this.records.change(now, { type: 'returnRecorded', actor: r.actor, kind: 'returnRecorded', details: { return: returnDetails(made) } }, tx);
      return made;
    });
  }

  /** `work` in one transaction holding the part's row lock; a supplier order that changed meanwhile is read again. */
  private async inPart<T>(storeId: string, supplierOrderId: string, work: (tx: Queryable, so: SupplierOrder) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction(async (tx) => {
          if (!(await lockPart(tx, storeId, supplierOrderId))) throw errors.notFound('The supplier order');
          return work(tx, await this.records.loadOrFail(supplierOrderId, storeId));
        });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'concurrentChange') || attempt >= 4) throw err;
      }
    }
  }

  /** The returned items: each an item of the part, named once, at most what was sent less what its returns hold. */
  private itemsOf(part: Part, asked: ReturnRequest['items'], returned: Map<string, number>): ReturnItem[] {
    const details: Array<{ field: string; message: string }> = [];
    const again: typeof details = [];
    const items = asked.flatMap((a, n) => {
      const found = part.find((p) => p.id === a.itemId);
      const left = found ? found.quantity - (returned.get(found.id) ?? 0) : 0;
      if (!found) details.push({ field: `body/items/${n}/itemId`, message: 'is not an item of this supplier order' });
      else if (asked.findIndex((x) => x.itemId === a.itemId) !== n) details.push({ field: `body/items/${n}/itemId`, message: 'is named twice' });
      else if (a.quantity > found.quantity) details.push({ field: `body/items/${n}/quantity`, message: `is more than the ${found.quantity} sent` });
      else if (a.quantity > left)
        again.push({ field: `body/items/${n}/quantity`, message: `is more than the ${left} of ${found.quantity} sent not returned yet` });
      return found ? [{ itemId: found.id, sku: found.sku, quantity: a.quantity }] : [];
    });
    if (details.length) throw invalid(details);
    if (again.length)
      throw new ApiError(409, 'alreadyReturned', 'Some of these items were returned already: an item is returned at most as many times as it was sent.', again);
    return items;
  }
}
