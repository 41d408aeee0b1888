/** The profit report as `GET /api/store-suppliers/:storeId/reports/profit` answers it, and the names of its groupings. */
import type { Page } from './types.js';

export interface ProfitFigures {
  orders: number;
  parts: number;
  revenueMinor: number;
  landedCostMinor: number;
  paymentFeeMinor: number;
  /** What suppliers gave back (claims refunded), already off the landed cost. */
  supplierCreditMinor: number;
  /** Shoppers' refunds, when the report carries them (the payments' own deltas); absent, the series is not drawn. */
  refundMinor?: number;
  resultMinor: number;
  incompleteParts: number;
}
export type ProfitRow = ProfitFigures & { key: string; label: string };
export type ProfitReport = Page<ProfitRow> & { currency: string; from: string; to: string; groupBy: GroupBy; totals: ProfitFigures };
export type GroupBy = 'day' | 'product' | 'connection';

export const GROUPS: Record<GroupBy, { label: string; column: string }> = {
  day: { label: 'Day', column: 'Day' },
  product: { label: 'Product', column: 'Product' },
  connection: { label: 'Supplier connection', column: 'Supplier connection' },
};
