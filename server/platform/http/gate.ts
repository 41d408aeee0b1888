import type { Queryable } from '../db';
import type { IdempotencyKeys } from './idempotency';
import type { Caller, Payer, StoreAccess } from './route';

export interface Credentials {
  apiKey?: string;
  bearer?: string;
}

/** What the HTTP pipeline asks of the identity domain; implemented in server/identity. */
export interface Gate {
  /**
   * The caller and, when `storeId` is given, its access to that store (null: none, answered 404), in one
   * round trip. null when no credential was sent; throws 401 when one was sent but is not valid.
   */
  authenticateFor(headers: Credentials, storeId: string | null): Promise<{ caller: Caller; store: StoreAccess | null | undefined } | null>;
  /** null when the caller may not see the store at all (answered 404). */
  storeAccess(storeId: string, caller: Caller): Promise<StoreAccess | null>;
  planIncludesDropshipping(plan: string): boolean;
  requiredPlan: string;
  /** Takes `amount` credits for `action`; throws 402 when the account has too few. */
  charge(payer: Payer, action: string, amount: number, requestId: string, tx?: Queryable): Promise<void>;
  /** Takes price × units for `action` before the handler, held until the request ends; throws 402 when too few. */
  hold(payer: Payer, action: string, price: number, units: number, requestId: string): Promise<CreditHold>;
  /** The callers' idempotency keys (absent: routes take no key, as in tests of the pipeline alone). */
  idempotency?: IdempotencyKeys;
}

/**
 * Credits taken up front and held while the request runs. The units its work spends are marked in the transactions
 * that do the work; settling refunds the rest. A hold its request stops renewing (the process died) is settled by the
 * sweep, which refunds the same: what was spent stays charged, nothing more, and only one of them refunds.
 */
export interface CreditHold {
  /** Marks `units` spent inside `tx`, the transaction doing their work; throws (rolling it back) when the hold lapsed. */
  spend(tx: Queryable, units: number): Promise<void>;
  /** Keeps the hold's lease; called every `renewEveryMs` while the request runs. */
  renew(): Promise<void>;
  renewEveryMs: number;
  /** Ends the hold, refunding the units not spent (nothing when the sweep already ended it). */
  settle(): Promise<void>;
}
