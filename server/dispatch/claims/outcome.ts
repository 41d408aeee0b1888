import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../identity/permissions';
import type { PartMoves } from '../../orders';
import type { Queryable } from '../../platform/db';
import { ApiError, errors } from '../../platform/errors';
import { failpoint } from '../../platform/failpoints';
import { convertMinor } from '../../rates/decimal';
import type { Money, SupplierOrderSnapshot } from '../../suppliers/adapter';
import type { StoreRates } from '../landed';
import type { SupplierOrderRecords } from '../records';
import { moveClaim } from '../sql/claims';
import { recordCredit } from '../sql/credits';
import type { SupplierOrder } from '../supplier-order';
import { SYSTEM } from '../dispatch-event';
import type { Claim, ClaimOutcome } from './types';
import { claimDetails } from './views';

type Move = Parameters<typeof moveClaim>[2];
const SUPPLIER = { kind: 'supplier' as const, id: null };
const isConflict = (err: unknown, code: string) => err instanceof ApiError && err.code === code;

/**
 * A claim's moves, each written with its history entry on the supplier order (and that entry's event) in one
 * transaction: sent, the supplier's status changed, closed with an outcome. A won reship makes the new supplier order
 * in the same transaction (its part, its record queued), which its own dispatch job then sends like any other (the
 * look-up by its number before the create): whatever crashes, the claim closes once and the reship is made once.
 */
export class ClaimOutcomes {
  constructor(
    private readonly db: DataSource,
    private readonly records: SupplierOrderRecords,
    private readonly parts: Pick<PartMoves, 'reshipItems' | 'creditDeltas'>,
    private readonly rates: StoreRates,
    /** Asks for a supplier order's dispatch job (the reship's). */
    private readonly send: (so: SupplierOrder) => Promise<void>,
  ) {}

  /**
   * `claim` moved by compare and set on its status (409 claimChanged if it moved meanwhile), with `kind` in the supplier
   * order's history; `more` runs in the same transaction. A supplier order that changed meanwhile is read again.
   */
  async record(
    claim: Claim,
    to: Move,
    kind: 'claimUpdated' | 'claimClosed',
    actor: Actor,
    more?: (tx: Queryable, moved: Claim, so: SupplierOrder) => Promise<void>,
  ): Promise<Claim> {
    for (let attempt = 0; ; attempt++) {
      const so = await this.records.loadOrFail(claim.supplierOrderId, claim.storeId);
      try {
        return await this.db.transaction(async (tx) => {
          const moved = await moveClaim(tx, claim, to);
          if (!moved) throw errors.conflict('claimChanged', 'The claim changed meanwhile; read it again.');
          await more?.(tx, moved, so);
          await this.records.change(so, { type: 'claimRecorded', actor, kind, details: { claim: claimDetails(moved) } }, tx);
          return moved;
        });
      } catch (err) {
        if (!isConflict(err, 'concurrentChange') || attempt >= 4) throw err;
      }
    }
  }

  close(claim: Claim, outcome: ClaimOutcome, actor: Actor): Promise<Claim> {
    return this.record(claim, { status: 'closed', outcome }, 'claimClosed', actor);
  }

  /** A refund: the supplier's amount, and the store's at today's rate, recorded with it (none: `rateMissing` says why). */
  async refunded(claim: Claim, amount: Money, by: ClaimOutcome['by']): Promise<Claim> {
    const storeCurrency = await this.records.storeCurrency(claim.storeId);
    const rate = await this.rates.rateFor(amount.currency, storeCurrency);
    const storeAmount = rate.available
      ? {
          amountMinor: convertMinor(amount.amountMinor, amount.currency, storeCurrency, rate.rate),
          currency: storeCurrency,
          rate: rate.rate,
          rateSource: rate.source,
          rateAsOf: rate.asOfDate,
        }
      : null;
    const outcome: ClaimOutcome = {
      kind: 'refunded',
      amount,
      storeAmount,
      ...(rate.available ? {} : { rateMissing: rate.reason }),
      at: new Date().toISOString(),
      by,
    };
    // The refund is a supplier credit on the part, taken off its landed cost with the claim's close (one transaction).
    return this.record(claim, { status: 'closed', outcome }, 'claimClosed', by.kind === 'supplier' ? SYSTEM : by, async (tx, c) => {
      const counts = await recordCredit(tx, {
        storeId: c.storeId,
        id: crypto.randomUUID(),
        supplierOrderId: c.supplierOrderId,
        kind: 'claimRefund',
        sourceKey: c.id,
        amount,
        storeAmount,
        storeCurrency,
      });
      if (counts) await this.parts.creditDeltas(tx, { storeId: c.storeId, ...counts });
    });
  }

  /**
   * A reship the supplier approved: in one transaction the claim closes naming the new supplier order, the claimed items
   * are copied into a part of its own (`supplier:<connection>:<claim>`) and its supplier order is made (queued, or, when
   * the supplier made the reship order itself, `adopt`ed: recorded as the supplier has it, never created again). Its job is
   * then asked for; a crash before that leaves it queued, which the sweeper finds. `held`: the claim's authority ended, so
   * no order is placed, and the outcome says why.
   */
  async reshipped(claim: Claim, adopt: SupplierOrderSnapshot | null, held?: string): Promise<Claim> {
    failpoint('dispatch.reshipBeforeOutcome', claim.id);
    const id = crypto.randomUUID();
    const outcome: ClaimOutcome = {
      kind: 'reshipped',
      supplierOrderId: held ? null : id,
      supplierSideOrderId: adopt?.supplierOrderId ?? null,
      ...(held ? { held } : {}),
      at: new Date().toISOString(),
      by: SUPPLIER,
    };
    let made: SupplierOrder | null = null;
    const closed = await this.record(claim, { status: 'closed', outcome }, 'claimClosed', SYSTEM, async (tx, c, so) => {
      if (held) return;
      const partKey = `${so.partKey.split(':').slice(0, 2).join(':')}:${c.id}`;
      const copied = await this.parts.reshipItems(tx, {
        storeId: c.storeId,
        orderId: c.orderId,
        fromKey: so.partKey,
        toKey: partKey,
        connectionId: so.connectionId,
        items: c.items.map((i) => ({ id: i.itemId, quantity: i.quantity })),
      });
      if (copied !== c.items.length) throw errors.conflict('concurrentChange', "The reship's part exists already; read the claim again.");
      const record = {
        id,
        storeId: c.storeId,
        orderId: c.orderId,
        partKey,
        connectionId: so.connectionId,
        supplierKey: so.supplierKey,
        orderNumber: so.orderNumber,
        contractModel: so.contractModel,
        destination: so.destination,
        payNow: false,
        createdByAccountId: c.createdByAccountId,
        createdByKeyId: c.createdByKeyId,
        reshipOf: { claimId: c.id, supplierOrderId: so.id, supplierClaimId: c.supplierClaimId },
      };
      made = await this.records.createIn(tx, record, c.actor, 'reship');
      if (adopt)
        made = await this.records.change(made, { type: 'supplierAnswered', answer: adopt, history: 'foundAtSupplier', details: { reshipOf: c.id } }, tx);
    });
    failpoint('dispatch.reshipAfterOutcome', claim.id);
    if (made) await this.send(made);
    return closed;
  }
}
