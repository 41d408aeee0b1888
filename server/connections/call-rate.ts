import type { Queryable } from '../platform/db';
import { SupplierError } from '../suppliers/errors';
import { takeCallSlot } from './sql/health';

/** A call that would wait longer than this is refused on our side (it never reached the supplier). */
const MAX_WAIT_MS = 60_000;

/**
 * Spaces the calls to a supplier account by the least gap its supplier allows, for every process on the database:
 * each call takes the next free slot of its key in one statement (the row holds when that slot is) and waits for
 * it. Only connections whose supplier declares a limit pay the round trip.
 */
export class SupplierCallRates {
  constructor(private readonly db: Queryable) {}

  /** `key`: what the supplier counts calls by (its account, or the connection when it does not say). */
  async take(key: string, spacingMs: number): Promise<void> {
    const slotMs = await takeCallSlot(this.db, key, spacingMs);
    // Waits until the slot's own time (not for a duration counted from the answer), so a slow answer to this
    // statement does not squeeze this call closer to the one before it.
    const wait = slotMs - Date.now();
    if (wait > MAX_WAIT_MS)
      throw new SupplierError(
        'unavailable',
        `Too many calls are waiting for this supplier account's rate limit (one every ${spacingMs} ms); try again later`,
        undefined,
        true,
      );
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}
