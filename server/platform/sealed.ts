/** Values sealed under the keyring (APP_SECRET and the earlier ones), and sealing them all again with the newest. */
import { SealedUnreadable, type Secrets } from './crypto';
import type { Queryable } from './db';

/** One column of sealed values, as the domain that owns the table reads and replaces them (in its sql.ts). */
export interface SealedValues {
  /** What they are, in the reseal report: apiKeys, supplierCredentials ... */
  name: string;
  /** Every value (or the first `limit`), by the id of its row. */
  list(db: Queryable, limit?: number): Promise<Array<{ id: string; sealed: string }>>;
  /** Replaces one value only while it is still `was`: a value changed meanwhile was sealed with the newest secret by whoever changed it. */
  replace(db: Queryable, id: string, was: string, now: string): Promise<boolean>;
}

export interface ResealCount {
  /** Sealed again with the newest secret now. */
  resealed: number;
  /** Already sealed with the newest secret (or changed meanwhile, and so sealed with it). */
  current: number;
  /** Opened by no secret of the keyring: left as they are. */
  unreadable: number;
}

/**
 * Seals every value again with the newest secret, one row at a time, each write conditional on the value being
 * unchanged: idempotent (a second run finds everything current), and safe while the service runs and writes.
 */
export async function resealAll(db: Queryable, secrets: Secrets, kinds: SealedValues[]): Promise<Record<string, ResealCount>> {
  const report: Record<string, ResealCount> = {};
  for (const kind of kinds) {
    const count: ResealCount = { resealed: 0, current: 0, unreadable: 0 };
    for (const { id, sealed } of await kind.list(db)) {
      let now: string | null;
      try {
        now = secrets.resealed(sealed);
      } catch (err) {
        if (!(err instanceof SealedUnreadable)) throw err;
        count.unreadable++;
        continue;
      }
      if (now !== null && (await kind.replace(db, id, sealed, now))) count.resealed++;
      else count.current++;
    }
    report[kind.name] = count;
  }
  return report;
}

/** The first value of each kind: enough to tell which secret of the keyring the data was sealed under. */
export async function sealedSamples(db: Queryable, kinds: SealedValues[]): Promise<string[]> {
  return (await Promise.all(kinds.map((k) => k.list(db, 1)))).flat().map((v) => v.sealed);
}
