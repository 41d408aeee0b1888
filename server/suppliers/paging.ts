/** Page-number paging, for suppliers whose search takes a page number: the cursor the service hands back is that number. */
import { SupplierError } from './errors';

/** The page a cursor names (1 without one); a cursor that is not a page number up to `maxPage` was never given out. */
export function pageOfCursor(cursor: string | undefined, maxPage: number): number {
  if (cursor === undefined) return 1;
  if (!/^[1-9]\d*$/.test(cursor) || cursor.length > String(maxPage).length || Number(cursor) > maxPage)
    throw new SupplierError('refused', 'Not a cursor this supplier gave out');
  return Number(cursor);
}

/** The page size asked for, as a whole number from 1 to `max`. */
export function pageSizeWithin(pageSize: number, max: number): number {
  return Math.min(max, Math.max(1, Math.floor(pageSize) || 1));
}
