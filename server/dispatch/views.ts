import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { Cursors, keysetPage, Page } from '../platform/pagination';
import { errors } from '../platform/errors';
import type { SupplierOrder } from './entities';
import { SupplierOrder as SupplierOrderEntity } from './entities';

export interface SupplierOrderEvent {
  at: string;
  actor: { kind: string; id: string | null };
  type: string;
  from: string | null;
  to: string | null;
  details: Record<string, unknown>;
}

export interface SupplierOrderFilters {
  status?: string;
  needsReview?: boolean;
  integrationId?: string;
  orderId?: string;
  contractModel?: string;
}

/** Reads of supplier orders: one, and the cursor-paged list with its exact totalCount. */
export class SupplierOrderReads {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
  ) {}

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<SupplierOrder> {
    const so = await this.db.getRepository(SupplierOrderEntity).findOneBy({ id, storeId });
    if (!so || (ownKeyId && so.createdByKeyId !== ownKeyId)) throw errors.notFound('The supplier order');
    return so;
  }

  async events(ids: string[]): Promise<Map<string, SupplierOrderEvent[]>> {
    const out = new Map<string, SupplierOrderEvent[]>(ids.map((id) => [id, []]));
    if (!ids.length) return out;
    const rows: Array<{ supplier_order_id: string; at: Date; actor_kind: string; actor_id: string | null; type: string; from_status: string | null; to_status: string | null; details: Record<string, unknown> }> = await this.db.query(
      'SELECT * FROM supplier_order_events WHERE supplier_order_id = ANY($1) ORDER BY id',
      [ids],
    );
    for (const r of rows) out.get(r.supplier_order_id)!.push({ at: r.at.toISOString(), actor: { kind: r.actor_kind, id: r.actor_id }, type: r.type, from: r.from_status, to: r.to_status, details: r.details });
    return out;
  }

  view(so: SupplierOrder, events: SupplierOrderEvent[], showCustomer: boolean) {
    return {
      _id: so.id,
      storeId: so.storeId,
      orderId: so.orderId,
      orderNumber: so.orderNumber,
      fulfilmentGroupKey: so.groupKey,
      integrationId: so.connectionId,
      supplierKey: so.supplierKey,
      contractModel: so.contractModel,
      status: so.status,
      reviewReason: so.reviewReason,
      reviewMessage: so.reviewMessage,
      retryable: so.retryable ?? false,
      supplierOrderNumber: so.supplierOrderNumber,
      supplierOrderId: so.supplierOrderId,
      supplierStatus: so.supplierStatus,
      costs: so.costs,
      payment: { status: so.paymentStatus },
      shipping: so.shipping,
      attempt: so.attempt,
      events,
      ...(showCustomer ? { destination: so.destination, destinationRedacted: false } : { destinationRedacted: true }),
      createdAt: so.createdAt.toISOString(),
      updatedAt: so.updatedAt.toISOString(),
    };
  }

  async views(rows: SupplierOrder[], showCustomer: boolean) {
    const events = await this.events(rows.map((r) => r.id));
    return rows.map((r) => this.view(r, events.get(r.id)!, showCustomer));
  }

  private where(storeId: string, ownKeyId: string | null, f: SupplierOrderFilters) {
    const parts = ['s.store_id = $1'];
    const args: unknown[] = [storeId];
    const add = (sql: string, v: unknown) => {
      args.push(v);
      parts.push(sql.replace('?', `$${args.length}`));
    };
    if (ownKeyId) add('s.created_by_key_id = ?', ownKeyId);
    if (f.needsReview === true) add('s.status = ?', 'needsReview');
    if (f.needsReview === false) add('s.status <> ?', 'needsReview');
    if (f.status) add('s.status = ?', f.status);
    if (f.integrationId) add('s.connection_id = ?', f.integrationId);
    if (f.orderId) add('s.order_id = ?', f.orderId);
    if (f.contractModel) add('s.contract_model = ?', f.contractModel);
    return { sql: parts.join(' AND '), args };
  }

  /** Exact, and cheap at any size: summed from the per-store counts kept by trigger (own-scope keys count directly). */
  async count(storeId: string, ownKeyId: string | null, f: SupplierOrderFilters): Promise<number> {
    if (ownKeyId || f.orderId) {
      const w = this.where(storeId, ownKeyId, f);
      return (await this.db.query(`SELECT count(*)::int AS n FROM supplier_orders s WHERE ${w.sql}`, w.args))[0].n;
    }
    const parts = ['store_id = $1'];
    const args: unknown[] = [storeId];
    const add = (sql: string, v: unknown) => {
      args.push(v);
      parts.push(sql.replace('?', `$${args.length}`));
    };
    if (f.needsReview === true) add('status = ?', 'needsReview');
    if (f.needsReview === false) add('status <> ?', 'needsReview');
    if (f.status) add('status = ?', f.status);
    if (f.integrationId) add('connection_id = ?', f.integrationId);
    if (f.contractModel) add('contract_model = ?', f.contractModel);
    const [row] = await this.db.query(`SELECT coalesce(sum(n), 0)::bigint AS n FROM supplier_order_counts WHERE ${parts.join(' AND ')}`, args);
    return Number(row.n);
  }

  async list(storeId: string, ownKeyId: string | null, f: SupplierOrderFilters & { cursor?: string; pageSize: number }): Promise<Page<SupplierOrder>> {
    const filters = { storeId, ownKeyId, status: f.status ?? null, needsReview: f.needsReview ?? null, integrationId: f.integrationId ?? null, orderId: f.orderId ?? null, contractModel: f.contractModel ?? null };
    return keysetPage<SupplierOrder & { cursorAt: string }, SupplierOrder>({
      cursors: this.cursors,
      list: 'supplierOrders',
      filters,
      cursor: f.cursor,
      pageSize: f.pageSize,
      fetch: async (pos, limit) => {
        const w = this.where(storeId, ownKeyId, f);
        let sql = `SELECT s.id, s.created_at::text AS cursor_at FROM supplier_orders s WHERE ${w.sql}`;
        if (pos) {
          w.args.push(pos.createdAt, pos.id);
          sql += ` AND (s.created_at, s.id) ${pos.dir === 'next' ? '<' : '>'} ($${w.args.length - 1}::timestamptz, $${w.args.length}::uuid)`;
        }
        const order = pos?.dir === 'prev' ? 'ASC' : 'DESC';
        sql += ` ORDER BY s.created_at ${order}, s.id ${order} LIMIT ${limit}`;
        const keys: Array<{ id: string; cursor_at: string }> = await this.db.query(sql, w.args);
        const rows = keys.length ? await this.db.getRepository(SupplierOrderEntity).findBy({ id: In(keys.map((k) => k.id)) }) : [];
        const byId = new Map(rows.map((r) => [r.id, r]));
        return keys.map((k) => Object.assign(byId.get(k.id)!, { cursorAt: k.cursor_at }));
      },
      count: () => this.count(storeId, ownKeyId, f),
      map: (s) => s,
    });
  }
}
