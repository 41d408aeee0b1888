// The review reasons: each reason's flags, one line each, and its words for people (the console's and the n8n node's).
// Copied into console/src/vocabulary.ts and nodes/StoreSuppliers/vocabulary.ts by server/platform/vocabulary/generate.cjs:
// keep it free of imports.

/** `retryable`: the value the service sets; `reroute`: whether a connection's rule may send the pause to backup suppliers (`default`: on unless changed, `optIn`: only when chosen). */
export interface ReviewReasonFlags {
  retryable: boolean;
  reroute: 'no' | 'optIn' | 'default';
}

/** The spec's review reasons. A new reason is one line here plus its words below (the compiler asks for them). */
export const REVIEW_REASONS = {
  insufficientBalance: { retryable: false, reroute: 'optIn' },
  variantUnavailable: { retryable: false, reroute: 'default' },
  destinationUnsupported: { retryable: false, reroute: 'default' },
  costAboveLimit: { retryable: false, reroute: 'default' },
  costChanged: { retryable: false, reroute: 'no' },
  customerPaymentPending: { retryable: false, reroute: 'no' },
  customerPaymentNotSettled: { retryable: false, reroute: 'no' },
  connectionUnhealthy: { retryable: true, reroute: 'no' },
  supplierRefused: { retryable: true, reroute: 'optIn' },
  connectionMissing: { retryable: false, reroute: 'no' },
  supplierAlreadyShipped: { retryable: false, reroute: 'no' },
  testMode: { retryable: false, reroute: 'no' },
  customerCaptureFailed: { retryable: false, reroute: 'no' },
  /** One supplier order is priced in one currency: the supplier prices a part's items, or its items and its shipping, in two (no rate makes that one cost). */
  currencyMismatch: { retryable: false, reroute: 'no' },
  /** The database went back in time and the supplier cannot be asked whether it holds the order: a person looks. */
  orderNumberUnverifiable: { retryable: false, reroute: 'no' },
  /** The rate a comparison or a landed cost needs is missing or older than EXCHANGE_RATE_MAX_AGE_DAYS; resumes by itself once one is there. */
  exchangeRateUnavailable: { retryable: true, reroute: 'no' },
} as const satisfies Record<string, ReviewReasonFlags>;

export type ReviewReason = keyof typeof REVIEW_REASONS;
export const REVIEW_REASON_LIST = Object.keys(REVIEW_REASONS) as ReviewReason[];

/** The reasons a connection's reroute rule may list. */
export type RerouteReason = { [R in ReviewReason]: (typeof REVIEW_REASONS)[R]['reroute'] extends 'no' ? never : R }[ReviewReason];
const rerouteOn = (flag: ReviewReasonFlags['reroute']) => REVIEW_REASON_LIST.filter((r): r is RerouteReason => REVIEW_REASONS[r].reroute === flag);
/** The reasons a rule lists until changed. */
export const DEFAULT_REROUTE_REASONS: readonly RerouteReason[] = rerouteOn('default');
/** Every reason a rule may list: the default ones, then the opt-in ones. */
export const REROUTE_REASONS: readonly RerouteReason[] = [...DEFAULT_REROUTE_REASONS, ...rerouteOn('optIn')];
export const isRerouteReason = (reason: string): reason is RerouteReason => (REROUTE_REASONS as readonly string[]).includes(reason);

/**
 * Words for people: `why` and `next` the console's review (why it stopped, what a person can do), `advice` the n8n
 * node's error (what a program may do), `rerouteLabel` the console's reroute rule (reroutable reasons only).
 */
type ReviewReasonWords<R extends ReviewReason> = { why: string; next: string; advice: string } & ((typeof REVIEW_REASONS)[R]['reroute'] extends 'no'
  ? { rerouteLabel?: never }
  : { rerouteLabel: string });

export const REVIEW_REASON_WORDS: { [R in ReviewReason]: ReviewReasonWords<R> } = {
  insufficientBalance: {
    why: 'Your balance at the supplier is too low to pay for it',
    next: 'Top up your balance at the supplier, then retry.',
    advice: 'Top up the balance at the supplier, then retry.',
    rerouteLabel: 'Your balance at the supplier is too low',
  },
  variantUnavailable: {
    why: 'The supplier no longer offers this item, or not in this quantity',
    next: 'Fulfil the part yourself, or cancel it and tell the shopper.',
    advice: 'The supplier no longer offers a variant; a person has to decide.',
    rerouteLabel: 'The supplier no longer offers the variant',
  },
  destinationUnsupported: {
    why: 'The supplier or your settings do not ship to this country',
    next: 'Fulfil the part yourself, or change the excluded countries in Connections and retry.',
    advice: 'The supplier does not deliver there, or the store excluded the country; a person has to decide.',
    rerouteLabel: 'The supplier does not deliver there',
  },
  costAboveLimit: {
    why: 'It costs more than the limit you set',
    next: 'Retry accepting the cost if you agree, or fulfil it yourself.',
    advice: "The cost is above the limit the store set; retry only on a person's decision (Accept Cost).",
    rerouteLabel: 'The cost is above your limit',
  },
  costChanged: {
    why: "The supplier's price changed since you imported the product",
    next: 'Check the new cost, then retry accepting it if you agree.',
    advice: "The supplier's price moved since import; retry with Accept Cost only on a person's decision.",
  },
  customerPaymentPending: {
    why: 'The shopper has not paid yet',
    next: "Retry once the payment provider confirmed the shopper's payment (a mark by hand does not count), or fulfil the part yourself.",
    advice: 'The shopper has not paid online; submit when the store decides.',
  },
  customerPaymentNotSettled: {
    why: "The shopper's payment is authorised but not settled yet",
    next: 'Retry once the payment is settled.',
    advice: 'The payment is authorised but not settled; retry after settlement.',
  },
  connectionUnhealthy: {
    why: 'The supplier could not be reached, even after automatic retries',
    next: 'Check the connection in Connections ("Test now"), then retry.',
    advice: 'The supplier did not answer or the connection is paused; retry later.',
  },
  supplierRefused: {
    why: 'The supplier refused the order',
    next: "Read the supplier's message, fix the cause, then retry.",
    advice: 'Read the message; retry once the cause is fixed.',
    rerouteLabel: 'The supplier refused the order',
  },
  connectionMissing: {
    why: 'The supplier connection is off or gone',
    next: 'Switch the connection on (or connect the supplier again) in Connections, then retry.',
    advice: 'The connection is off or removed, or the supplier is switched off; a person has to act.',
  },
  supplierAlreadyShipped: {
    why: 'The supplier shipped it before it could be cancelled',
    next: 'Handle it as a return with the shopper.',
    advice: 'A cancel came after the supplier shipped; handle it as a return.',
  },
  testMode: {
    why: 'The connection is in test mode and this supplier has no test environment',
    next: 'Connect the supplier live to send real orders.',
    advice: 'Test connection to a supplier without a sandbox; no order was placed. Nothing to do until the connection is live.',
  },
  customerCaptureFailed: {
    why: 'The supplier was paid but charging the shopper failed',
    next: 'Contact the shopper about the payment now.',
    advice: 'The supplier was paid but charging the shopper failed; tell a person at once.',
  },
  currencyMismatch: {
    why: 'The supplier prices this part in two currencies (two of its items, or its items and its shipping)',
    next: 'Retry once the supplier prices it in one currency, or fulfil the part yourself.',
    advice: 'The supplier prices the part in two currencies; a person has to decide.',
  },
  orderNumberUnverifiable: {
    why: "The service's records went back in time (a database restored from a backup or failed over), and this supplier cannot be asked whether it already holds the order",
    next: 'Look for its supplier order number at the supplier. If the order is there, cancel this part here and see to the order there; if not, retry to send it.',
    advice: 'The supplier may already hold this order and cannot be asked by number; a person has to look at the supplier before retrying.',
  },
  exchangeRateUnavailable: {
    why: "No recent exchange rate between the supplier's currency and your store's",
    next: 'Wait: it resumes by itself once a fresh rate is fetched or the operator pins one. Or fulfil it yourself.',
    advice: 'No exchange rate recent enough to convert the cost; it resumes by itself once a fresh or pinned rate exists.',
  },
};
