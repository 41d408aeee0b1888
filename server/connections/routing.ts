import type { DataSource } from 'typeorm';
import { DEFAULT_ROUTING, type RoutingRule } from './types';
import * as sql from './sql/routing';

/** The store's rule as the API shows it: the default when never set (`updatedAt` null then). */
export interface StoreRoutingView {
  routing: RoutingRule;
  updatedAt: string | null;
}

/**
 * The store's routing rule: how a part's supplier is chosen among its link's primary and alternates. A store
 * setting, not a connection's: it chooses between connections (docs/decisions.md, "Routing rule").
 */
export class StoreRouting {
  constructor(private readonly db: DataSource) {}

  async get(storeId: string): Promise<StoreRoutingView> {
    const found = await sql.routingOfStore(this.db, storeId);
    return found ? { routing: normaliseRouting(found.routing), updatedAt: found.updatedAt.toISOString() } : { routing: DEFAULT_ROUTING, updatedAt: null };
  }

  async set(storeId: string, routing: RoutingRule): Promise<StoreRoutingView> {
    const saved = await sql.setRoutingOfStore(this.db, storeId, normaliseRouting(routing));
    return { routing: saved.routing, updatedAt: saved.updatedAt.toISOString() };
  }
}

/** Only the rule's own fields (the schema admits no others; a stored value is read the same way). */
export function normaliseRouting(r: RoutingRule): RoutingRule {
  return r.rule === 'fastest' ? { rule: 'fastest', maxCostAboveCheapestPercent: r.maxCostAboveCheapestPercent } : { rule: r.rule };
}
