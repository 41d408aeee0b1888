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
