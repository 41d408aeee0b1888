import type { Params, Queryable } from '../platform/db';
import type { Piece } from '../platform/statement';
import { moveItems, partMove, reshipItems } from './sql/parts';
import { creditDeltas, PROFIT_SUM_COLUMNS, profitChangedPieces, profitSumPieces } from './sql/profit';
import type { PartMove } from './types';

export type ItemsMove = Parameters<typeof moveItems>[1];

/**
 * How another domain moves order parts: always written by the orders domain, inside the caller's statement (pieces for
 * its platform/statement.ts composer) or transaction (the handle passed in).
 */
export class PartMoves {
  /** The pieces that move the parts named by the relation `parts` (giving order_id and group_key), the store order following. */
  pieces(p: Params, storeId: string, parts: string, move: PartMove): Piece[] {
    return partMove(p, storeId, parts, move);
  }

  /**
   * `storeOrder.profitChanged` for each row of the relation `moved` (giving store_id, order_id and the event's `data`):
   * a part's landed cost moved (the dispatch domain decides when, in its statement).
   */
  profitChanged(p: Params, storeId: string, moved: string): Piece[] {
    return profitChangedPieces(p, storeId, moved);
  }

  /** The columns the relation given to `profitSums` has (the caller's piece gives them). */
  readonly profitSumColumns = PROFIT_SUM_COLUMNS;

  /**
   * The profit report's kept sums for each row of the relation `parts` (a part whose latest landed cost stage moved, or that was cancelled:
   * store_id, supplier_order_id, order_id, group_key, connection_id, stage, landed_minor, store_currency, previous_stage,
   * previous_landed_minor, and `gone` for a part cancelled), in the caller's statement.
   */
  profitSums(p: Params, storeId: string, parts: string): Piece[] {
    return profitSumPieces(p, storeId, parts);
  }

  /** A reroute's items leave their part for another (made pending if absent), inside the caller's transaction; answers how many moved. */
  moveItems(tx: Queryable, m: ItemsMove): Promise<number> {
    return moveItems(tx, m);
  }

  /** A supplier credit that counts comes off its part's landed cost in the profit report's sums, inside the caller's transaction. */
  creditDeltas(tx: Queryable, c: Parameters<typeof creditDeltas>[1]): Promise<void> {
    return creditDeltas(tx, c);
  }

  /** A reship's new part, with copies of the claimed items at no price, inside the caller's transaction; answers how many were copied. */
  reshipItems(tx: Queryable, m: Parameters<typeof reshipItems>[1]): Promise<number> {
    return reshipItems(tx, m);
  }
}
