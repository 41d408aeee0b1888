// Generated from server/platform/vocabulary/ by npm run generate:vocabulary (build:server runs it): change it there.

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

// Statuses people read: a supplier order's, an order part's, a store order's. Copied like server/platform/vocabulary/review-reasons.ts: no imports.

export const SUPPLIER_ORDER_STATUSES = [
  'queued',
  'needsReview',
  'submitted',
  'confirmed',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
  'failed',
] as const;
export type SupplierOrderStatus = (typeof SUPPLIER_ORDER_STATUSES)[number];

export const PART_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export type PartStatus = (typeof PART_STATUSES)[number];

export const STORE_ORDER_STATUSES = ['pending', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export type StoreOrderStatus = (typeof STORE_ORDER_STATUSES)[number];

// The event types a subscription may choose, each with what it reports. Copied like server/platform/vocabulary/review-reasons.ts: no imports.

/**
 * Every event type, with what it reports: the subscription routes' enum and the OpenAPI words of each type
 * (server/events/schemas.ts), and the n8n trigger's picker (its options' descriptions, from the node's copy) read it.
 */
export const EVENT_TYPES = {
  'supplierOrder.created': 'A supplier order was made for an order part (status queued).',
  'supplierOrder.statusChanged': 'A supplier order moved to another status not named by its own type (submitted, confirmed, processing, queued again).',
  'supplierOrder.paused': 'A supplier order stopped for review: reviewReason, reviewMessage and retryable say why.',
  'supplierOrder.shipped': 'The supplier shipped the order: carrier and tracking number in shipping.',
  'supplierOrder.delivered': 'The supplier order was delivered.',
  'supplierOrder.cancelled': 'The supplier order was cancelled.',
  'supplierOrder.rerouted':
    "A paused supplier order's items went to a backup supplier: this order is cancelled, and the history of both names from, to, the reason and the cost difference.",
  'supplierOrder.routed':
    "Dispatch chose the supplier order's supplier by the routing rule before sending it: its history entry routed names the rule, the chosen connection, why, and every candidate's quote (cost, currency, rate, days).",
  'supplierOrder.returned':
    "A package of a shipped supplier order went back to the supplier (Printful's package_returned, read back): its history entry packageReturned names the carrier and tracking number; the status stays.",
  'supplierOrder.failed': 'Sending the supplier order failed for now; a background job retries it.',
  'supplierOrder.deliveryAttention':
    "A sent supplier order's delivery needs a look (no tracking, no movement, overdue, or the supplier's exception): deliveryAttention names the reason; the status stays.",
  'supplierOrder.deliveryAttentionCleared': "A supplier order's delivery attention ended: tracking moved, it was delivered, or a person acknowledged it.",
  'supplierOrder.claimOpened': "A claim with the supplier was opened for some of the order's items: the history entry claimOpened holds the claim.",
  'supplierOrder.claimUpdated': "A claim with the supplier moved (sent, or the supplier's status changed): the history entry claimUpdated holds the claim.",
  'supplierOrder.claimClosed':
    "A claim with the supplier has its outcome (refunded, reshipped with the new supplier order, rejected with the supplier's words, withdrawn or stopped): the history entry claimClosed holds the claim.",
  'supplierOrder.returnRecorded':
    "Items of a shipped supplier order were returned on the store's side (why, and whether the shopper is refunded): the history entry returnRecorded holds the return.",
  'supplierOrder.returnUpdated':
    "A return's refund to the shopper moved (the provider took it, or refused it): the history entry returnUpdated holds the return.",
  'orderPart.statusChanged': "An order part's status changed (pending, processing, shipped, delivered, cancelled).",
  'storeOrder.paymentChanged':
    "A store order's paymentStatus changed on the payment provider's signed word (authorised, paid, failed, refunded); a payment taken back after it (or, under promise to sell, the supplier) was paid also sets needsAttention and paymentAttention; so do a capture refused after a supplier part shipped and a dispute of the charge, sent with the status unchanged.",
  'storeOrder.profitChanged':
    "A part's landed cost moved from the one recorded at confirmation (the supplier accepted or was paid at another cost, or at another rate): the part's landed costs by stage and the store order's profit.",
  'importJob.finished': 'An import job finished (completed or failed): counts, errors and the products it made.',
  'productLink.syncFailed': "A product link's sync failed with a new error (lastSyncError says which); the same error again is not repeated.",
  'connection.circuitOpened': "Calls to the supplier failed often enough that the connection's circuit opened: calls wait until circuitOpenUntil.",
  'connection.healthChanged': "The connection's health status changed (healthy or unhealthy), with the check's message.",
} as const;
export type EventType = keyof typeof EVENT_TYPES;

// Store permissions. Copied like server/platform/vocabulary/review-reasons.ts: no imports.

/** Store permissions; the owner holds all of them, staff hold what they were granted. */
export const PERMISSIONS = [
  'suppliers.view',
  'suppliers.manage',
  'suppliers.import',
  'suppliers.orders.manage',
  'products.view',
  'products.manage',
  'orders.view',
  'orders.manage',
  'customers.view',
  'staff.manage',
  // The payment provider's signing secret: whoever sets it decides which payment events the store believes.
  'payments.manage',
  // Claims with suppliers: opening one may bring a refund or a new order at the supplier.
  'claims.manage',
  // Returns on the store's side; a return that refunds the shopper also needs payments.manage (money leaves the store).
  'returns.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
