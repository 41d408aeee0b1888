import type { Queryable } from '../db';
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
  /** Gives back `amount` credits of an earlier charge for `action`. */
  refund(payer: Payer, action: string, amount: number, requestId: string): Promise<void>;
}
