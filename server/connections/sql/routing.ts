import { type Queryable, rows } from '../../platform/db';
import type { RoutingRule } from '../types';

// The store's routing rule (store_supplier_routing, this domain's table): one row per store that set one.

/** The store's rule and when it was set; null: never set. */
export async function routingOfStore(db: Queryable, storeId: string): Promise<{ routing: RoutingRule; updatedAt: Date } | null> {
  const [r] = await rows<{ routing: RoutingRule; updated_at: Date }>(db, 'SELECT routing, updated_at FROM store_supplier_routing WHERE store_id = $1', [
    storeId,
  ]);
  return r ? { routing: r.routing, updatedAt: r.updated_at } : null;
}

export async function setRoutingOfStore(db: Queryable, storeId: string, routing: RoutingRule): Promise<{ routing: RoutingRule; updatedAt: Date }> {
  const [r] = await rows<{ routing: RoutingRule; updated_at: Date }>(
    db,
    `INSERT INTO store_supplier_routing (store_id, routing) VALUES ($1, $2)
     ON CONFLICT (store_id) DO UPDATE SET routing = EXCLUDED.routing, updated_at = now() RETURNING routing, updated_at`,
    [storeId, JSON.stringify(routing)],
  );
  return { routing: r.routing, updatedAt: r.updated_at };
}
