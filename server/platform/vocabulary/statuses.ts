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
