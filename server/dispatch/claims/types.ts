import type { Actor } from '../../identity/permissions';
import type { ClaimExpectation, ClaimReason, ClaimStatus } from '../../platform/vocabulary/claims';
import type { Money } from '../../suppliers/adapter';

export type { ClaimExpectation, ClaimReason, ClaimStatus };

/** One claimed item of the part, by the store order's item, with the supplier's variant it was ordered as. */
export interface ClaimItem {
  itemId: string;
  sku: string;
  supplierVariantId: string;
  quantity: number;
}

/** A refund in the store's currency, at the rate recorded when the outcome was (as landed costs are converted). */
export interface StoreAmount {
  amountMinor: number;
  currency: string;
  rate: string;
  rateSource: string;
  rateAsOf: string;
}

/**
 * A claim's outcome. A refund keeps the supplier's amount and currency, and the store's at the recorded rate (null when
 * no rate could be had: `rateMissing` says why); issue "Money per payment" turns it into a supplier credit. A reship
 * names the new supplier order (null when the supplier reships under its own order, or it is held: `held` says why).
 */
export type ClaimOutcome = { at: string; by: Actor | { kind: 'supplier'; id: null } } & (
  | { kind: 'refunded'; amount: Money; storeAmount: StoreAmount | null; rateMissing?: string }
  | { kind: 'reshipped'; supplierOrderId: string | null; supplierSideOrderId: string | null; held?: string }
  | { kind: 'rejected'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'stopped'; message: string }
);

export interface Claim {
  /** Also the key the claim is sent under (CJ's businessDisputeId): sent again after a crash, it is found by it. */
  id: string;
  storeId: string;
  supplierOrderId: string;
  orderId: string;
  connectionId: string;
  supplierKey: string;
  /** `api`: the service sends it and follows it; `person`: a person sends it and records the outcome. */
  via: 'api' | 'person';
  reason: ClaimReason;
  expectation: ClaimExpectation;
  items: ClaimItem[];
  message: string;
  evidence: string[];
  status: ClaimStatus;
  supplierClaimId: string | null;
  supplierStatus: string | null;
  outcome: ClaimOutcome | null;
  /** A person's claim: by when the supplier takes it (or, where the supplier escalates, by when it may be). */
  deadline: Date | null;
  cancelRequested: boolean;
  /** Whose authority the claim acts on (checked again before it is sent and before a reship is placed). */
  createdByAccountId: string;
  createdByKeyId: string | null;
  actor: Actor;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}
