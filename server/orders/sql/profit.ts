import { outboxStep } from '../../events';
import type { Params } from '../../platform/db';
import type { Piece } from '../../platform/statement';

/**
 * The `storeOrder.profitChanged` event for each row of `moved` (store_id, order_id, data), as a piece of the caller's
 * statement; recorded for the store order's creating key, as its other events are.
 */
export function profitChangedPieces(p: Params, storeId: string, moved: string): Piece[] {
  const store = p.add(storeId);
  return [{
    name: 'profit_event', gives: ['*'], reads: { [moved]: ['store_id', 'order_id', 'data'] },
    sql: outboxStep({
      from: `${moved} m JOIN store_orders o ON o.store_id = ${store}::uuid AND o.id = m.order_id`, type: `'storeOrder.profitChanged'`, storeId: 'm.store_id',
      resourceKey: `'storeOrder:' || m.order_id`, recordKeyId: 'o.created_by_key_id', snapshot: 'm.data',
    }),
  }];
}
