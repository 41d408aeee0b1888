import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { errors } from '../platform/errors';
import { SupplierConnection } from '../connections/entities';
import type { Destination, PartStatus, PaymentMethod, PaymentStatus, Shipment } from '../orders/entities';
import type { Actor } from '../identity/permissions';
import { SupplierOrder } from './entities';
import { partStatusOf, SupplierOrderStatus } from './state-machine';
import * as sql from './sql';

export { CHANGE_CHANNEL } from './sql';

export type Fields = Partial<Pick<SupplierOrder, sql.ChangeableField>>;

export interface Change {
  /** The statuses the record may be in for the change to apply (compare and set: anything else is a conflict). */
  from: SupplierOrderStatus[];
  /** The new status; absent keeps it. */
  to?: SupplierOrderStatus;
  fields?: Fields;
  actor: Actor;
  type: string;
  details?: Record<string, unknown>;
  /** The order part after the change, when the change moves it. */
  part?: { status: PartStatus; shipment: Shipment | null; needsAttention: boolean };
}

/** The order part that follows from a supplier order: its status, its shipment, whether it needs a person. */
export function partOf(status: SupplierOrderStatus, shipping: SupplierOrder['shipping']): NonNullable<Change['part']> {
  const shipment = shipping ? { carrier: shipping.carrier, trackingNumber: shipping.trackingNumber, shippedAt: shipping.shippedAt, deliveredAt: status === 'delivered' ? new Date().toISOString() : null } : null;
  return { status: partStatusOf(status), shipment, needsAttention: status === 'needsReview' || status === 'failed' };
}

export interface WorkItem {
  id: string;
  sku: string;
  quantity: number;
  supplierVariantId: string | null;
  linkCostMinor: number | null;
  /** The supplier product the item's variant is linked to now; null once unlinked. */
  supplierProductId: string | null;
}

/** What a dispatch step reads: the record, its connection, the store order's payment, the part's items. */
export interface Work {
  so: SupplierOrder;
  conn: SupplierConnection;
  order: { paymentMethod: PaymentMethod; paymentStatus: PaymentStatus; confirmed: boolean };
  items: WorkItem[];
}

/** Supplier order records: reading a record for a step, and the one way a record changes (statements in ./sql). */
export class SupplierOrderRecords {
  constructor(private readonly db: DataSource) {}

  transaction<T>(fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  load(id: string, tx: EntityManager = this.db.manager): Promise<SupplierOrder | null> {
    return tx.getRepository(SupplierOrder).findOneBy({ id });
  }

  async loadOrFail(id: string): Promise<SupplierOrder> {
    const so = await this.load(id);
    if (!so) throw errors.notFound('The supplier order');
    return so;
  }

  forPart(orderId: string, groupKey: string): Promise<SupplierOrder | null> {
    return this.db.getRepository(SupplierOrder).findOneBy({ orderId, groupKey });
  }

  bySupplierId(connectionId: string, supplierOrderId: string): Promise<SupplierOrder | null> {
    return this.db.getRepository(SupplierOrder).findOneBy({ connectionId, supplierOrderId });
  }

  ofOrders(orderIds: string[]): Promise<SupplierOrder[]> {
    if (!orderIds.length) return Promise.resolve([]);
    return this.db.getRepository(SupplierOrder).createQueryBuilder('s').where('s.order_id = ANY(:ids)', { ids: orderIds }).orderBy('s.created_at', 'ASC').getMany();
  }

  connection(id: string): Promise<SupplierConnection | null> {
    return this.db.getRepository(SupplierConnection).findOneBy({ id });
  }

  /** Whether some step is due (the generated column): one indexed read. */
  async stepDue(id: string): Promise<boolean> {
    return sql.stepDue(this.db, id);
  }

  /** Everything a step needs, read side by side; `so` when the caller has just read the record. */
  async work(id: string, known?: SupplierOrder): Promise<Work | null> {
    const so = known ?? (await this.load(id));
    if (!so) return null;
    const [conn, o] = await Promise.all([this.db.getRepository(SupplierConnection).findOneByOrFail({ id: so.connectionId }), sql.orderOfPart(this.db, so.orderId, so.groupKey)]);
    const items = o.items.map((i) => ({ ...i, linkCostMinor: i.linkCostMinor === null ? null : Number(i.linkCostMinor) }));
    return { so, conn, order: { paymentMethod: o.payment_method, paymentStatus: o.payment_status, confirmed: o.confirmed }, items };
  }

  /**
   * The one way a supplier order changes, in one statement: compare and set on its status, the history event,
   * the order part (the store order follows it by trigger), and the notification waiters listen for.
   */
  async apply(id: string, c: Change, tx?: EntityManager): Promise<void> {
    if (!(await sql.applyChange(tx ?? this.db, id, c))) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
  }

  /**
   * Exactly one supplier order per order part (unique index), written before any call to the supplier, with its
   * first event and the part's new state; `charge` runs in the same transaction only when this call made the record.
   */
  async insert(
    input: { storeId: string; orderId: string; groupKey: string; connectionId: string; supplierKey: string; orderNumber: string; contractModel: string; destination: Destination; payNow: boolean; createdByAccountId: string; createdByKeyId: string | null },
    actor: Actor,
    trigger: string,
    charge?: (tx: EntityManager) => Promise<void>,
  ): Promise<{ so: SupplierOrder; created: boolean }> {
    const id = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      const inserted = await sql.insertSupplierOrder(
        tx,
        { id, ...input, supplierOrderNumber: supplierOrderNumber(id, 1) },
        { actorKind: actor.kind, actorId: actor.id, details: { trigger, ...(input.payNow ? { payNow: true } : {}) } },
      );
      if (inserted && charge) await charge(tx);
      const so = await tx.getRepository(SupplierOrder).findOneByOrFail({ orderId: input.orderId, groupKey: input.groupKey });
      return { so, created: inserted };
    });
  }

  /** Records with a step due that nothing touched for a while (a lost job, a crash between commit and send). */
  stale(olderThanSeconds: number, limit: number): Promise<Array<{ id: string; order_id: string; group_key: string; connection_id: string; supplier_key: string }>> {
    return sql.staleWithStepDue(this.db, olderThanSeconds, limit);
  }

  /** Failed records whose backoff has passed. */
  dueForRetry(limit: number): Promise<Array<{ id: string }>> {
    return sql.dueForRetry(this.db, limit);
  }

  /** The last cost the pre-checks saw, offered for acceptance by retry with acceptCost. */
  async lastSeenCost(soId: string): Promise<number | null> {
    return sql.lastSeenCost(this.db, soId);
  }
}

/** The service's own number for an attempt, sent to the supplier as its order number. */
export function supplierOrderNumber(id: string, attempt: number): string {
  return `ss-${id.replace(/-/g, '').slice(0, 20)}-${attempt}`;
}
