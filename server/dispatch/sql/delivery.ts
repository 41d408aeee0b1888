import type { DeliveryWatch } from '../../connections';
import { affected, type Queryable, rows } from '../../platform/db';
import type { DeliveryState } from '../delivery/types';
import type { SupplierOrder } from '../supplier-order';
import { OF_S, supplierOrderOf, type SupplierOrderRow } from './rows';

// The delivery watch's statements (../delivery/): the sent orders whose next threshold came due, with their
// connection's watch settings (the connections domain's row, read in the same statement), and a due time moved on.

/** Orders of every store whose watch is due, soonest first (by the partial index on delivery_due_at). */
export async function deliveryDue(db: Queryable, limit: number): Promise<Array<{ so: SupplierOrder; watch: Partial<DeliveryWatch> | null }>> {
  const found = await rows<SupplierOrderRow & { watch: Partial<DeliveryWatch> | null }>(
    db,
    `SELECT /* cross-store: delivery-watch-sweep */ ${OF_S}, c.automation -> 'deliveryWatch' AS watch
       FROM supplier_orders s JOIN supplier_connections c ON c.store_id = s.store_id AND c.id = s.connection_id
      WHERE s.delivery_due_at <= now() ORDER BY s.delivery_due_at LIMIT $1`,
    [limit],
  );
  return found.map((r) => ({ so: supplierOrderOf(r), watch: r.watch }));
}

/** A look that raised nothing: only the due time moves (no history, and updated_at keeps meaning the last change). */
export async function moveDeliveryDue(db: Queryable, so: { storeId: string; id: string }, was: DeliveryState | null, dueAt: Date | null): Promise<void> {
  await affected(db, 'UPDATE supplier_orders SET delivery_due_at = $3 WHERE store_id = $1 AND id = $2 AND delivery IS NOT DISTINCT FROM $4::jsonb', [
    so.storeId,
    so.id,
    dueAt,
    was === null ? null : JSON.stringify(was),
  ]);
}
