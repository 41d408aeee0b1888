import type { EntityManager } from 'typeorm';
import { errors } from '../platform/errors';
import type { OrderService } from '../orders/service';
import { STORE_GROUP } from '../orders/service';
import type { FulfilmentGroup, StoreOrder } from '../orders/entities';
import type { Actor } from '../identity/permissions';
import type { SupplierOrder } from './entities';
import type { DispatchQueue } from './queues';
import { Fields, partOf, SupplierOrderRecords, supplierOrderNumber } from './records';
import { FINAL, SupplierOrderStatus, SUPPLIER_ORDER_STATUSES } from './state-machine';
import type { SupplierOrderWaiter } from './waiter';

export interface Outcome {
  so: SupplierOrder;
  /** False when the job had not finished within the wait (or the caller asked not to wait): answered 202. */
  settled: boolean;
}

export interface CommandOptions {
  /** `Prefer: respond-async`: answer at once with the record as it is. */
  respondAsync?: boolean;
}

const CANCELLABLE = SUPPLIER_ORDER_STATUSES.filter((s) => !FINAL.has(s) && s !== 'shipped');

/** What a caller asks of a supplier order: each writes its request on the record, asks for the job, and waits (bounded). */
export class DispatchCommands {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly queue: DispatchQueue,
    private readonly waiter: SupplierOrderWaiter,
    private readonly orders: OrderService,
  ) {}

  private async answer(so: SupplierOrder, opts: CommandOptions): Promise<Outcome> {
    if (so.status === 'queued' || so.stepDue) await this.queue.request(so);
    return opts.respondAsync ? { so: (await this.records.load(so.id)) ?? so, settled: false } : this.waiter.until(so.id);
  }

  /**
   * One supplier order per order part however often it is called; `charge` runs in the transaction that makes the
   * record, so a repeated or concurrent submit of the same part answers the same order and charges nothing.
   */
  async submit(order: StoreOrder, groupKey: string, actor: Actor, payNow: boolean, opts: CommandOptions & { charge?: (tx: EntityManager) => Promise<void> } = {}): Promise<Outcome> {
    const group = await this.supplierPart(order, groupKey);
    const existing = await this.records.forPart(order.id, groupKey);
    if (existing) return this.answer(existing, opts);
    if (group.fulfilledByStore) throw errors.invalidState('The store fulfils this part itself.');
    const { so } = await this.ensure(order, group, actor, { payNow, trigger: 'submit', charge: opts.charge });
    return this.answer(so, opts);
  }

  /** Makes the part's supplier order (status queued) if it has none; the caller asks for the job. */
  async ensure(order: StoreOrder, group: FulfilmentGroup, actor: Actor, o: { payNow: boolean; trigger: string; charge?: (tx: EntityManager) => Promise<void> }) {
    const conn = await this.records.connection(group.connectionId!);
    if (!conn) throw errors.notFound('The order part');
    return this.records.insert(
      {
        storeId: order.storeId, orderId: order.id, groupKey: group.groupKey, connectionId: conn.id, supplierKey: conn.supplierKey, orderNumber: order.number,
        contractModel: order.contractModel, destination: order.destination, payNow: o.payNow, createdByAccountId: order.createdByAccountId,
        createdByKeyId: actor.kind === 'key' ? actor.id : order.createdByKeyId,
      },
      actor,
      o.trigger,
      o.charge,
    );
  }

  /** Retry: back to queued; with acceptCost the caller's acceptance of the new cost is recorded. */
  async retry(so: SupplierOrder, actor: Actor, acceptCost: boolean, opts: CommandOptions = {}): Promise<Outcome> {
    if (!['queued', 'needsReview', 'failed'].includes(so.status)) throw errors.invalidState(`A ${so.status} supplier order cannot be retried.`);
    const fields: Fields = { reviewReason: null, reviewMessage: null, retryable: false, nextRetryAt: null };
    const details: Record<string, unknown> = {};
    if (acceptCost) {
      const seen = await this.records.lastSeenCost(so.id);
      fields.acceptedCostMinor = seen;
      Object.assign(details, { acceptCost: true, acceptedCostMinor: seen });
    }
    // A new attempt, with a new number, only once the previous number is known not to exist at the supplier.
    if (so.numberKnownAbsent) {
      Object.assign(fields, { attempt: so.attempt + 1, supplierOrderNumber: supplierOrderNumber(so.id, so.attempt + 1), numberKnownAbsent: false });
      details.newAttempt = so.attempt + 1;
    }
    if (so.status !== 'queued') fields.retriesUsed = 0;
    await this.records.apply(so.id, { from: [so.status], to: 'queued', fields, actor, type: 'retry', details, part: partOf('queued', so.shipping) });
    return this.answer(await this.records.loadOrFail(so.id), opts);
  }

  async pay(so: SupplierOrder, actor: Actor, opts: CommandOptions = {}): Promise<Outcome> {
    if (so.status !== 'submitted') throw errors.invalidState(`Only a submitted supplier order (created, not paid) can be paid; this one is ${so.status}.`);
    await this.records.apply(so.id, { from: ['submitted'], fields: { payRequested: true }, actor, type: 'payRequested' });
    return this.answer(await this.records.loadOrFail(so.id), opts);
  }

  async cancel(so: SupplierOrder, actor: Actor, opts: CommandOptions & { storeTakesOver?: boolean } = {}): Promise<Outcome> {
    if (!CANCELLABLE.includes(so.status)) throw errors.invalidState(`A ${so.status} supplier order cannot be cancelled.`);
    await this.records.apply(so.id, {
      from: CANCELLABLE as SupplierOrderStatus[],
      fields: { cancelRequested: true, ...(opts.storeTakesOver ? { storeTakesOver: true } : {}) },
      actor,
      type: opts.storeTakesOver ? 'fulfilManuallyRequested' : 'cancelRequested',
    });
    return this.answer(await this.records.loadOrFail(so.id), opts);
  }

  /** The store takes a part over: its supplier order (if any) is cancelled and the store ships the part. */
  async fulfilManually(order: StoreOrder, groupKey: string, actor: Actor, opts: CommandOptions = {}) {
    const group = await this.orders.group(order.id, groupKey);
    if (!group || groupKey === STORE_GROUP) throw errors.notFound('The supplier part');
    if (group.fulfilledByStore) throw errors.invalidState('The store already fulfils this part.');
    const so = await this.records.forPart(order.id, groupKey);
    if (so && (so.status === 'shipped' || so.status === 'delivered')) throw errors.invalidState('The supplier already shipped this part.');
    if (so && so.status !== 'cancelled') {
      const out = await this.cancel(so, actor, { ...opts, storeTakesOver: true });
      return { so: out.so, group: await this.orders.group(order.id, groupKey), settled: out.settled };
    }
    await this.records.transaction((tx) => this.orders.handPartToStore(tx, order.id, groupKey));
    return { so, group: await this.orders.group(order.id, groupKey), settled: true };
  }

  private async supplierPart(order: StoreOrder, groupKey: string): Promise<FulfilmentGroup> {
    if (!groupKey.startsWith('supplier:')) throw errors.badRequest('notASupplierPart', "This part holds the store's own items; it has no supplier.");
    const group = await this.orders.group(order.id, groupKey);
    if (!group || !group.connectionId) throw errors.notFound('The order part');
    return group;
  }
}
