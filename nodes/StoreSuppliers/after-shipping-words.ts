// Generated from server/platform/vocabulary/ by npm run generate:vocabulary (build:server runs it): change it there.

// After shipping: why a sent order's delivery needs a look, with its words for people (the console's and the n8n
// node's). Copied like server/platform/vocabulary/review-reasons.ts: no imports.

/** What the supplier or its carrier reports as a delivery exception: the watch raises each the connection lists. */
export const DELIVERY_EXCEPTIONS = ['returnedToSender', 'failedDelivery', 'customsHold'] as const;
export type DeliveryException = (typeof DELIVERY_EXCEPTIONS)[number];

/**
 * Why a sent order's delivery needs a person (its status stays: it was sent). Three thresholds of the connection's
 * delivery watch, then the supplier's exceptions. A new reason is one line here plus its words below.
 */
export const DELIVERY_ATTENTION_REASONS = ['noTracking', 'noMovement', 'overdue', ...DELIVERY_EXCEPTIONS] as const;
export type DeliveryAttentionReason = (typeof DELIVERY_ATTENTION_REASONS)[number];

/** `why` and `next` for the console, `advice` for the n8n node (what a program may do). */
export const DELIVERY_ATTENTION_WORDS: { [R in DeliveryAttentionReason]: { why: string; next: string; advice: string } } = {
  noTracking: {
    why: 'No tracking yet, days after the supplier was paid',
    next: 'Ask the supplier when it ships; acknowledge to wait longer.',
    advice: "The supplier was paid but gave no tracking within the watch's days; ask it, or acknowledge.",
  },
  noMovement: {
    why: 'The carrier has not scanned the parcel for too long',
    next: 'Check the tracking; open a claim if it looks lost, or acknowledge to wait longer.',
    advice: 'Tracking stopped moving; a claim (not received) may be due.',
  },
  overdue: {
    why: "Not delivered by the supplier's promised days plus the grace",
    next: 'Check with the shopper; open a claim if it did not arrive.',
    advice: 'Past the promised delivery; a claim (not received) may be due.',
  },
  returnedToSender: {
    why: 'The carrier is sending the parcel back',
    next: 'Check the address with the shopper, then claim a reship or a refund.',
    advice: 'The parcel goes back to the sender; a claim or a new order is needed.',
  },
  failedDelivery: {
    why: 'The carrier could not deliver it',
    next: 'Check the address and reach the shopper; claim if it is not delivered.',
    advice: 'Delivery failed; a person checks the address with the shopper.',
  },
  customsHold: {
    why: 'The parcel is held at customs',
    next: 'Check whether duties or papers are needed from the shopper.',
    advice: 'Held at customs; a person looks at what customs asks for.',
  },
};

// Claims with the supplier: their reasons, what the store expects, their statuses and outcomes, with words for people.
// Copied like server/platform/vocabulary/review-reasons.ts: no imports.

export const CLAIM_REASONS = ['notReceived', 'damaged', 'wrongItem', 'missingItems', 'quality'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];

export const CLAIM_EXPECTATIONS = ['refund', 'reship'] as const;
export type ClaimExpectation = (typeof CLAIM_EXPECTATIONS)[number];

/**
 * `sending`: recorded, the service sends it (once, under the claim's own id); `open`: at the supplier, followed until it
 * decides; `withPerson`: a supplier without a claims API, a person sends it and records the outcome before the
 * deadline; `closed`: it has an outcome.
 */
export const CLAIM_STATUSES = ['sending', 'open', 'withPerson', 'closed'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** `stopped`: its creator may no longer manage claims when the service came to act on it. */
export const CLAIM_OUTCOMES = ['refunded', 'reshipped', 'rejected', 'cancelled', 'stopped'] as const;
export type ClaimOutcomeKind = (typeof CLAIM_OUTCOMES)[number];

export const CLAIM_REASON_WORDS: { [R in ClaimReason]: string } = {
  notReceived: 'The parcel did not arrive',
  damaged: 'It arrived damaged',
  wrongItem: 'The wrong item came',
  missingItems: 'Items were missing',
  quality: 'The quality is not as described',
};

export const CLAIM_OUTCOME_WORDS: { [O in ClaimOutcomeKind]: string } = {
  refunded: 'The supplier refunded it',
  reshipped: 'The supplier reships it',
  rejected: 'The supplier rejected the claim',
  cancelled: 'The claim was withdrawn',
  stopped: 'Stopped: its creator may no longer manage claims',
};

// Returns on the store's side: why a shopper sends a part back, with words for people, and the refund's statuses.
// Copied like server/platform/vocabulary/review-reasons.ts: no imports.

/** Why the shopper returns items: a few reasons a report can group by; the note says the rest. */
export const RETURN_REASONS = ['noLongerWanted', 'damaged', 'wrongItem', 'notAsDescribed', 'arrivedLate', 'cancelledAfterShipping'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/**
 * The shopper's refund of a return: `sending` recorded under the return's key, the provider's answer not yet had (a
 * 503, a lost answer, a crash: sent again under the same key, it refunds once); `requested` the provider took it;
 * `refused` the provider (or the order's payments) refused it.
 */
export const RETURN_REFUND_STATUSES = ['sending', 'requested', 'refused'] as const;
export type ReturnRefundStatus = (typeof RETURN_REFUND_STATUSES)[number];

export const RETURN_REASON_WORDS: { [R in ReturnReason]: string } = {
  noLongerWanted: 'The shopper no longer wants it',
  damaged: 'It arrived damaged',
  wrongItem: 'The wrong item came',
  notAsDescribed: 'It is not as described',
  arrivedLate: 'It arrived too late',
  cancelledAfterShipping: 'The order was cancelled after the supplier shipped it',
};
