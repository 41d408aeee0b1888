import type { DataSource } from 'typeorm';
import { errors } from '../platform/errors';
import { type Cursors, keysetPage, type Page } from '../platform/pagination';
import { profitSums, type ProfitGroupBy, type ProfitSumRow } from './sql/report';

// The profit report (issue 41, item 4; docs/decisions.md, "The profit report"): totals and rows per day, product or
// connection over a range of days, read from the sums the statements that change them keep.

export interface ProfitFigures {
  orders: number;
  parts: number;
  revenueMinor: number;
  landedCostMinor: number;
  paymentFeeMinor: number;
  /** Supplier credits, already taken off `landedCostMinor` (shown as their own figure). */
  supplierCreditMinor: number;
  /** The shoppers' refunds (whole and partial), already taken out of `revenueMinor` (shown as their own figure). */
  refundMinor: number;
  resultMinor: number;
  incompleteParts: number;
}
export interface ProfitReportItem extends ProfitFigures {
  key: string;
  label: string;
}
export interface ProfitReport extends Page<ProfitReportItem> {
  currency: string;
  from: string;
  to: string;
  groupBy: ProfitGroupBy;
  totals: ProfitFigures;
}

/** The most days one report covers. */
export const MAX_REPORT_DAYS = 366;
const DAY_MS = 86_400_000;

/** A day `YYYY-MM-DD` as a time, or null when it is no day of the calendar. */
function dayOf(s: string): number | null {
  const t = Date.parse(`${s}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s ? t : null;
}

function figures(r: ProfitSumRow): ProfitFigures {
  const revenueMinor = Number(r.revenue_minor);
  const landedCostMinor = Number(r.landed_cost_minor);
  const paymentFeeMinor = Number(r.payment_fee_minor);
  return {
    orders: Number(r.orders),
    parts: Number(r.parts),
    revenueMinor,
    landedCostMinor,
    paymentFeeMinor,
    supplierCreditMinor: Number(r.supplier_credit_minor ?? 0),
    refundMinor: Number(r.refund_minor ?? 0),
    resultMinor: revenueMinor - landedCostMinor - paymentFeeMinor,
    incompleteParts: Number(r.incomplete_parts),
  };
}

export class ProfitReports {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
  ) {}

  async profit(storeId: string, q: { from: string; to: string; groupBy: ProfitGroupBy; pageSize: number; cursor?: string }): Promise<ProfitReport> {
    const from = dayOf(q.from);
    const to = dayOf(q.to);
    if (from === null) throw errors.validationFailed([{ field: 'from', message: 'must be a day of the calendar, YYYY-MM-DD' }]);
    if (to === null) throw errors.validationFailed([{ field: 'to', message: 'must be a day of the calendar, YYYY-MM-DD' }]);
    if (to < from) throw errors.validationFailed([{ field: 'to', message: 'must not be before from' }]);
    if ((to - from) / DAY_MS > MAX_REPORT_DAYS) throw errors.validationFailed([{ field: 'to', message: `must be at most ${MAX_REPORT_DAYS} days after from` }]);
    let head: { currency: string; totals: ProfitFigures } | null = null;
    const page = await keysetPage<ProfitSumRow & { cursor_at: string; id: string }, ProfitReportItem>({
      cursors: this.cursors,
      list: 'profitReport',
      filters: { storeId, from: q.from, to: q.to, groupBy: q.groupBy },
      cursor: q.cursor,
      pageSize: q.pageSize,
      fetch: async (pos, limit) => {
        const r = await profitSums(this.db, storeId, {
          from: q.from,
          to: q.to,
          groupBy: q.groupBy,
          after: pos?.id ?? null,
          before: pos?.dir === 'prev',
          limit,
        });
        head = { currency: r.currency, totals: figures(r.totals) };
        // Going back, the page is read in descending key order (keysetPage turns it round).
        const rows = (pos?.dir === 'prev' ? [...r.page].reverse() : r.page).map((x) => ({ ...x, cursor_at: '', id: x.key }));
        return { rows, totalCount: r.totalCount };
      },
      map: (r) => ({ key: r.key, label: r.label, ...figures(r) }),
    });
    const h = head as { currency: string; totals: ProfitFigures } | null;
    if (!h) throw new Error('profit report read nothing');
    return { currency: h.currency, from: q.from, to: q.to, groupBy: q.groupBy, totals: h.totals, ...page };
  }
}
