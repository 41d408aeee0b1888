import type { Queryable } from './db';
import { affected, rows } from './db';
import { errors } from './errors';

/** A limit of `limit` calls in any `windowSeconds`, per store: the route states it (x-rate-limit) and its handler takes it. */
export interface RateLimit {
  /** The key's prefix; routes naming the same bucket share one budget (`shared` lists their operation ids). */
  bucket: string;
  limit: number;
  windowSeconds: number;
  per: 'store';
  shared?: string[];
}

/**
 * Takes one call of `key`'s budget or answers 429 `rateLimited` with Retry-After. GCRA: a row per key holds the
 * theoretical arrival time; a call is allowed while that time, pushed on by one interval (window ÷ limit), stays within
 * the window from now. One upsert under the row's lock, on the database's clock: any number of processes agree, and a
 * restart forgets nothing.
 */
export async function takeRate(db: Queryable, rule: RateLimit, key: string): Promise<void> {
  const interval = rule.windowSeconds / rule.limit;
  const [r] = await rows<{ allowed: boolean; wait: number }>(
    db,
    `INSERT INTO rate_limits AS r (key, tat, allowed) VALUES ($1, now() + make_interval(secs => $2), true)
     ON CONFLICT (key) DO UPDATE SET
       allowed = greatest(r.tat, now()) + make_interval(secs => $2) <= now() + make_interval(secs => $3),
       tat = CASE WHEN greatest(r.tat, now()) + make_interval(secs => $2) <= now() + make_interval(secs => $3) THEN greatest(r.tat, now()) + make_interval(secs => $2) ELSE r.tat END
     RETURNING r.allowed, extract(epoch FROM r.tat + make_interval(secs => $2) - make_interval(secs => $3) - now())::float8 AS wait`,
    [`${rule.bucket}:${key}`, interval, rule.windowSeconds],
  );
  if (!r.allowed) throw errors.rateLimited(rule.limit, rule.windowSeconds, Math.max(1, Math.ceil(r.wait)));
}

/** Rows whose budget is whole again say nothing: removed by the hourly housekeeping. */
export function purgeSpentRates(db: Queryable): Promise<number> {
  return affected(db, 'DELETE FROM rate_limits WHERE tat < now()', []);
}
