import { StoreOrderFromParts1764288000002 } from './1764288000002-StoreOrderFromParts';
import { FOLLOW_PARTS } from './1764633600500-CaptureThroughProvider';
import { undoing } from './sql-migration';

/**
 * The store order's status and needs-attention flag are written by the orders domain with the parts they follow
 * (`partMove`, server/orders/sql/parts.ts, in the statement that moves a part), no longer by the triggers of
 * migration StoreOrderFromParts (with the needs-attention rule as CaptureThroughProvider left it), which this drops.
 * `down` brings them back as they were.
 */
export const StoreOrderStatusInCode1764806400331 = undoing('StoreOrderStatusInCode1764806400331', StoreOrderFromParts1764288000002, [FOLLOW_PARTS(' OR s.payment_attention IS NOT NULL')]);
