import type { SupplierConnection } from '../../connections';
import type { Rate } from '../../rates';
import type { SupplierError } from '../../suppliers/errors';
import type { ReviewReason } from '../review-reasons';

// The sourcing unit's words (docs/architecture.md, "One sourcing decision"): a candidate is a connection with each of
// the part's items mapped to a variant there; an offer is what its supplier says of them now; a refusal says why not.

export interface Money {
  amountMinor: number;
  currency: string;
}

export interface CandidateItem {
  id: string;
  sku: string;
  quantity: number;
  supplierProductId: string;
  supplierVariantId: string;
  /** The link's maximum buy price for the variant (per unit); null: none set. */
  maxBuyPrice: Money | null;
}

export interface Candidate {
  connectionId: string;
  /** Null when the store has no such connection (any more). */
  conn: SupplierConnection | null;
  items: CandidateItem[];
  /** Its place among the items' alternates; -1: the items' link's own supplier; null: where the part is now. */
  position: number | null;
}

/** What a candidate's supplier offers for the part now, read once per job, in its currency and in the store's. */
export interface Offer {
  connectionId: string;
  supplierKey: string;
  items: Array<{ id: string; supplierProductId: string; supplierVariantId: string; unitCostMinor: number }>;
  currency: string;
  itemsMinor: number;
  /** The shipping service the create takes (`services`: each item's, for suppliers that ship items apart), and its cost. */
  shipping: { service: string; services?: string[]; costMinor: number; maxDays: number | null };
  totalMinor: number;
  storeCurrency: string;
  /** The items and shipping in the store's currency, at `rate` (one conversion of the total, rounded once). */
  storeTotalMinor: number;
  rate: Rate;
  /** When the supplier's answers were read (ISO 8601). */
  quotedAt: string;
}

/**
 * Why a candidate cannot take the part, as the review reason its current supplier would pause with, in words. `scope`
 * connection: it holds for every part of the connection (off, removed, test mode, circuit). `fault`: a passing error
 * (no answer), retried by the send, excluded by the choosing policies. `offer`: a limit a person may waive (maximum
 * buy price, cost limit) refused an offer otherwise good.
 */
export class Refusal {
  constructor(
    readonly reason: ReviewReason,
    readonly why: string,
    readonly details: Record<string, unknown> = {},
    readonly scope: 'connection' | 'candidate' = 'candidate',
    readonly fault: SupplierError | null = null,
    readonly offer: Offer | null = null,
  ) {}
}

export const isRefusal = (x: unknown): x is Refusal => x instanceof Refusal;
