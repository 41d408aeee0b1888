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
