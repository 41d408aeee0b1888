import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { sqlRows } from '../platform/db';
import { errors } from '../platform/errors';
import { SupplierConnection } from '../connections/entities';
import type { Destination, PartStatus, PaymentMethod, PaymentStatus, Shipment } from '../orders/entities';
import { Actor, SupplierOrder } from './entities';
import { partStatusOf, SupplierOrderStatus } from './state-machine';

/** Every change of a supplier order is announced here (in the same statement), for callers waiting on it. */
export const CHANGE_CHANNEL = 'supplier_order_changed';

/** The fields a dispatch step may write, and their columns. */
const COLUMNS = {
  reviewReason: 'review_reason',
  reviewMessage: 'review_message',
  retryable: 'retryable',
  supplierOrderId: 'supplier_order_id',
  supplierStatus: 'supplier_status',
  costs: 'costs',
  paymentStatus: 'payment_status',
  shipping: 'shipping',
  attempt: 'attempt',
  supplierOrderNumber: 'supplier_order_number',
  numberKnownAbsent: 'number_known_absent',
  payRequested: 'pay_requested',
  cancelRequested: 'cancel_requested',
  storeTakesOver: 'store_takes_over',
  acceptedCostMinor: 'accepted_cost_minor',
  retriesUsed: 'retries_used',
  nextRetryAt: 'next_retry_at',
  paymentDue: 'payment_due',
  shopperCaptured: 'shopper_captured',
} as const satisfies Partial<Record<keyof SupplierOrder, string>>;
const JSON_COLUMNS = new Set(['costs', 'shipping']);

export type Fields = Partial<Pick<SupplierOrder, keyof typeof COLUMNS>>;

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

/** The SQL of the dispatch domain: reading a record for a step, and the one way a record changes. */
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
    const rows = await this.db.query('SELECT step_due FROM supplier_orders WHERE id = $1', [id]);
    return !!rows[0]?.step_due;
  }

  /** Everything a step needs, read side by side; `so` when the caller has just read the record. */
  async work(id: string, known?: SupplierOrder): Promise<Work | null> {
    const so = known ?? (await this.load(id));
    if (!so) return null;
    const [conn, rows] = await Promise.all([
      this.db.getRepository(SupplierConnection).findOneByOrFail({ id: so.connectionId }),
      this.db.query(
        `SELECT o.payment_method, o.payment_status, o.confirmed_at IS NOT NULL AS confirmed,
                COALESCE((SELECT json_agg(json_build_object('id', i.id, 'sku', i.sku, 'quantity', i.quantity, 'supplierVariantId', i.supplier_variant_id,
                                                            'linkCostMinor', i.link_cost_minor, 'supplierProductId', l.supplier_product_id) ORDER BY i.position)
                            FROM store_order_items i
                            LEFT JOIN product_link_variants lv ON lv.store_variant_id = i.variant_id
                            LEFT JOIN product_links l ON l.id = lv.link_id
                           WHERE i.order_id = o.id AND i.group_key = $2), '[]') AS items
           FROM store_orders o WHERE o.id = $1`,
        [so.orderId, so.groupKey],
      ) as Promise<Array<{ payment_method: PaymentMethod; payment_status: PaymentStatus; confirmed: boolean; items: WorkItem[] }>>,
    ]);
    const [o] = rows;
    const items = o.items.map((i) => ({ ...i, linkCostMinor: i.linkCostMinor === null ? null : Number(i.linkCostMinor) }));
    return { so, conn, order: { paymentMethod: o.payment_method, paymentStatus: o.payment_status, confirmed: o.confirmed }, items };
  }

  /**
   * The one way a supplier order changes, in one statement: compare and set on its status, the history event,
   * the order part (the store order follows it by trigger), and the notification waiters listen for.
   */
  async apply(id: string, c: Change, tx?: EntityManager): Promise<void> {
    const args: unknown[] = [id, c.from, c.to ?? null, c.actor.kind, c.actor.id, c.type, JSON.stringify(c.details ?? {})];
    const sets: string[] = [];
    for (const [key, value] of Object.entries(c.fields ?? {})) {
      const column = COLUMNS[key as keyof typeof COLUMNS];
      if (!column) throw new Error(`not a dispatch field: ${key}`);
      args.push(JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value);
      sets.push(`${column} = $${args.length}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`);
    }
    let part = '';
    if (c.part) {
      args.push(c.part.status, c.part.shipment ? JSON.stringify(c.part.shipment) : null, c.part.needsAttention);
      const n = args.length;
      part = `, part AS (
        UPDATE fulfilment_groups g SET status = $${n - 2}, shipment = $${n - 1}::jsonb, needs_attention = $${n}, updated_at = now()
          FROM so WHERE g.order_id = so.order_id AND g.group_key = so.group_key AND NOT g.fulfilled_by_store)`;
    }
    const rows = await sqlRows(
      tx ?? this.db,
      `WITH cur AS (SELECT id, status FROM supplier_orders WHERE id = $1 AND status = ANY($2::text[]) FOR UPDATE),
       so AS (
         UPDATE supplier_orders s SET status = COALESCE($3, s.status), updated_at = now()${sets.map((x) => `, ${x}`).join('')}
           FROM cur WHERE s.id = cur.id
         RETURNING s.id, s.order_id, s.group_key, s.status, cur.status AS from_status
       ), ev AS (
         INSERT INTO supplier_order_events (supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
         SELECT id, $4, $5, $6, from_status, status, $7::jsonb FROM so
       )${part}
       SELECT so.id, pg_notify('${CHANGE_CHANNEL}', so.id::text) FROM so`,
      args,
    );
    if (!rows.length) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
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
      const inserted = await sqlRows(
        tx,
        `WITH so AS (
           INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                        payment_status, pay_now, destination, created_by_account_id, created_by_key_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, 'unpaid', $10, $11, $12, $13)
           ON CONFLICT (order_id, group_key) DO NOTHING RETURNING id
         ), ev AS (
           INSERT INTO supplier_order_events (supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
           SELECT id, $14, $15, 'created', NULL, 'queued', $16::jsonb FROM so
         ), part AS (
           UPDATE fulfilment_groups SET status = 'pending', needs_attention = false, updated_at = now()
            WHERE order_id = $3 AND group_key = $4 AND EXISTS (SELECT 1 FROM so) AND (status <> 'pending' OR needs_attention)
         )
         SELECT id FROM so`,
        [
          id, input.storeId, input.orderId, input.groupKey, input.connectionId, input.supplierKey, input.orderNumber, input.contractModel, supplierOrderNumber(id, 1),
          input.payNow, JSON.stringify(input.destination), input.createdByAccountId, input.createdByKeyId,
          actor.kind, actor.id, JSON.stringify({ trigger, ...(input.payNow ? { payNow: true } : {}) }),
        ],
      );
      if (inserted.length && charge) await charge(tx);
      const so = await tx.getRepository(SupplierOrder).findOneByOrFail({ orderId: input.orderId, groupKey: input.groupKey });
      return { so, created: inserted.length > 0 };
    });
  }

  /** Records with a step due that nothing touched for a while (a lost job, a crash between commit and send). */
  stale(olderThanSeconds: number, limit: number): Promise<Array<{ id: string; order_id: string; group_key: string; connection_id: string; supplier_key: string }>> {
    return this.db.query(
      `SELECT id, order_id, group_key, connection_id, supplier_key FROM supplier_orders
        WHERE step_due AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
  }

  /** Failed records whose backoff has passed. */
  dueForRetry(limit: number): Promise<Array<{ id: string }>> {
    return this.db.query(`SELECT id FROM supplier_orders WHERE status = 'failed' AND next_retry_at <= now() ORDER BY next_retry_at LIMIT $1`, [limit]);
  }

  /** The last cost the pre-checks saw, offered for acceptance by retry with acceptCost. */
  async lastSeenCost(soId: string): Promise<number | null> {
    const rows = await this.db.query(
      `SELECT details->>'currentCostMinor' AS c FROM supplier_order_events WHERE supplier_order_id = $1 AND details ? 'currentCostMinor' ORDER BY id DESC LIMIT 1`,
      [soId],
    );
    return rows[0]?.c != null ? Number(rows[0].c) : null;
  }
}

/** The service's own number for an attempt, sent to the supplier as its order number. */
export function supplierOrderNumber(id: string, attempt: number): string {
  return `ss-${id.replace(/-/g, '').slice(0, 20)}-${attempt}`;
}
