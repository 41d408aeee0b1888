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
