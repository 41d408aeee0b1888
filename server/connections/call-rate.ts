import { SupplierError } from '../suppliers/errors';

/** Anything that runs SQL and answers rows (a DataSource, an EntityManager, a pg Pool's wrapper). */
export interface SqlRunner {
  query(text: string, params?: unknown[]): Promise<any>;
}

/** A call that would wait longer than this is refused on our side (it never reached the supplier). */
const MAX_WAIT_MS = 60_000;

/**
 * Spaces the calls to a supplier account by the least gap its supplier allows, for every process on the database:
 * each call takes the next free slot of its key in one statement (the row holds when that slot is) and waits for
 * it. Only connections whose supplier declares a limit pay the round trip.
 */
export class SupplierCallRates {
  constructor(private readonly db: SqlRunner) {}

  /** `key`: what the supplier counts calls by (its account, or the connection when it does not say). */
  async take(key: string, spacingMs: number): Promise<void> {
    const rows = await this.db.query(
      `INSERT INTO supplier_call_rates AS r (rate_key, next_at) VALUES ($1, clock_timestamp() + make_interval(secs => $2 / 1000.0))
       ON CONFLICT (rate_key) DO UPDATE SET next_at = greatest(r.next_at, clock_timestamp()) + make_interval(secs => $2 / 1000.0)
       RETURNING extract(epoch FROM next_at) * 1000 - $2 AS slot_ms`,
      [key, spacingMs],
    );
    const row = Array.isArray(rows) ? rows[0] : rows?.rows?.[0];
    // Waits until the slot's own time (not for a duration counted from the answer), so a slow answer to this
    // statement does not squeeze this call closer to the one before it.
    const wait = Number(row?.slot_ms ?? 0) - Date.now();
    if (wait > MAX_WAIT_MS) throw new SupplierError('unavailable', `Too many calls are waiting for this supplier account's rate limit (one every ${spacingMs} ms); try again later`, undefined, true);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}
