import type { Params } from '../platform/db';
import type { Piece } from '../platform/statement';
import { type EventRenderer, type EventType, outboxStep, snapshotOf } from '../events';
import { supplierOrderOf, type SupplierOrderRow } from './sql/rows';
import type { SupplierOrderStatus } from './state-machine';
import type { Carried } from './carry';
import type { SupplierOrderReads } from './views';

/** The event a change of a supplier order records: one per new record or status change (none when the status stays). */
function supplierOrderEventType(from: SupplierOrderStatus | null, to: SupplierOrderStatus): EventType | null {
  if (from === null) return 'supplierOrder.created';
  if (from === to) return null;
  switch (to) {
    case 'needsReview':
      return 'supplierOrder.paused';
    case 'shipped':
    case 'delivered':
    case 'cancelled':
    case 'failed':
      return `supplierOrder.${to}`;
    default:
      return 'supplierOrder.statusChanged';
  }
}

/**
 * The change's event as a piece of `writeChange`'s statement (./sql/write.ts), written with it: the record as written
 * (`so`, every column) and the history entry it reached (`ev`). None when the change records no event.
 */
export function eventPiece(p: Params, c: Carried): Piece | null {
  const named: Record<string, EventType> = {
    rerouted: 'supplierOrder.rerouted',
    packageReturned: 'supplierOrder.returned',
    deliveryAttention: 'supplierOrder.deliveryAttention',
    deliveryAttentionCleared: 'supplierOrder.deliveryAttentionCleared',
    claimOpened: 'supplierOrder.claimOpened',
    claimUpdated: 'supplierOrder.claimUpdated',
    claimClosed: 'supplierOrder.claimClosed',
    returnRecorded: 'supplierOrder.returnRecorded',
    returnUpdated: 'supplierOrder.returnUpdated',
  };
  // Routed away: the choice's event (`routed`) says where the items went, and the chosen order its `created`.
  const type = c.history.type === 'routedAway' ? null : (named[c.history.type] ?? supplierOrderEventType(c.from, c.to));
  // Routing's choice carried by the change (./carry.ts): its event first, in the same insert.
  // The delivery watch's turn, when the change keeps its own name (./delivery/effect.ts): its event after the change's.
  const also = c.alsoEvent ? [`SELECT supplier_order_id, id, ${p.add(c.alsoEvent)}::text AS type, 3 AS k FROM ev`] : [];
  const entries = [
    ...(c.routed ? [`SELECT supplier_order_id, id, ${p.add('supplierOrder.routed')}::text AS type, 1 AS k FROM ev_routed`] : []),
    ...(type ? [`SELECT supplier_order_id, id, ${p.add(type)}::text AS type, 2 AS k FROM ev`] : []),
    ...also,
  ];
  if (!entries.length) return null;
  const sql = outboxStep({
    from: `so JOIN (${entries.join(' UNION ALL ')}) e ON e.supplier_order_id = so.id ORDER BY e.k`,
    type: 'e.type',
    storeId: 'so.store_id',
    resourceKey: `'supplierOrder:' || so.id`,
    recordKeyId: 'so.created_by_key_id',
    snapshot: `jsonb_build_object('record', to_jsonb(so), 'historyId', e.id)`,
  });
  return {
    name: 'so_event',
    gives: ['*'],
    reads: { so: ['id', 'store_id', 'created_by_key_id'], ev: ['id', 'supplier_order_id'], ...(c.routed ? { ev_routed: ['id', 'supplier_order_id'] } : {}) },
    sql,
  };
}

/** What `writeChange` keeps of a change for its event: the row as written (JSON) and the history entry it made. */
interface Snapshot {
  record: Omit<SupplierOrderRow, 'created_at' | 'updated_at' | 'next_retry_at'> & { created_at: string; updated_at: string; next_retry_at: string | null };
  historyId: number;
}

/** Supplier order events' data: the supplier order as the supplier-order routes answer it, as that change left it. */
export function supplierOrderRenderer(reads: SupplierOrderReads): EventRenderer {
  return {
    permission: 'suppliers.view',
    // The destination: the shopper's name, address and contact.
    customerData: true,
    async render(events, showCustomer) {
      const written = events.map((e) => {
        const { record: r, historyId } = snapshotOf<Snapshot>(e);
        const row = {
          ...r,
          created_at: new Date(r.created_at),
          updated_at: new Date(r.updated_at),
          next_retry_at: r.next_retry_at ? new Date(r.next_retry_at) : null,
        };
        return { so: supplierOrderOf(row), historyId: Number(historyId) };
      });
      return reads.asWritten(written, showCustomer);
    },
  };
}
