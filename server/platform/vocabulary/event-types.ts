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
