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
