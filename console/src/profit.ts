/**
 * The profit page: `GET /api/store-suppliers/:storeId/reports/profit` over a date range, by day, product or supplier
 * connection: the range's totals, the rows (paged by the report's cursors) and a chart of the page's rows, drawn by
 * uPlot (vendored as /console/uplot.js; docs/decisions.md, "The profit page's chart").
 */
import { api, qs } from './api.js';
import { act, clear, field, h } from './dom.js';
import { money } from './format.js';
import type { Ctx, Page } from './types.js';

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
type GroupBy = 'day' | 'product' | 'connection';

const GROUPS: Record<GroupBy, { label: string; column: string }> = {
  day: { label: 'Day', column: 'Day' },
  product: { label: 'Product', column: 'Product' },
  connection: { label: 'Supplier connection', column: 'Supplier connection' },
};

/** The part of uPlot this page uses (its iife build sets `window.uPlot`). */
interface UPlotCtor {
  new (opts: Record<string, unknown>, data: Array<Array<number | null>>, target: HTMLElement): { destroy(): void };
  paths: { bars?: (opts: Record<string, unknown>) => unknown };
}

let loading: Promise<UPlotCtor> | null = null;
/** uPlot and its style sheet, loaded once, from this service (the CSP allows only 'self'). */
function loadUPlot(): Promise<UPlotCtor> {
  loading ??= new Promise<UPlotCtor>((resolve, reject) => {
    document.head.append(h('link', { rel: 'stylesheet', href: '/console/uplot.css' }));
    const s = h('script', { src: '/console/uplot.js' });
    s.onload = () => resolve((window as unknown as { uPlot: UPlotCtor }).uPlot);
    s.onerror = () => ((loading = null), reject(new Error('The chart library could not be loaded; the figures below are complete.')));
    document.head.append(s);
  });
  return loading;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const view: { from: string; to: string; groupBy: GroupBy; cursor: string | null } = {
  from: isoDay(new Date(Date.now() - 29 * 86_400_000)),
  to: isoDay(new Date()),
  groupBy: 'day',
  cursor: null,
};

export async function profitPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const storeId = ctx.store!.id;
  const report = (await api<ProfitReport>('GET', `/api/store-suppliers/${storeId}/reports/profit${qs({ from: view.from, to: view.to, groupBy: view.groupBy, pageSize: 50, cursor: view.cursor })}`)).result;
  const again = () => profitPage(root, ctx);
  const from = h('input', { type: 'date', name: 'from', required: true, value: view.from });
  const to = h('input', { type: 'date', name: 'to', required: true, value: view.to });
  const groupBy = h('select', { name: 'groupBy' }, ...(Object.keys(GROUPS) as GroupBy[]).map((g) => h('option', { value: g, selected: g === view.groupBy }, GROUPS[g].label)));
  const show = h('button', { type: 'submit', class: 'primary' }, 'Show');
  const form = h(
    'form',
    { class: 'card range', onsubmit: (ev: Event) => (ev.preventDefault(), void act(show, async () => {
      Object.assign(view, { from: from.value, to: to.value, groupBy: groupBy.value as GroupBy, cursor: null });
      await again();
    })) },
    field('From', from), field('To', to, 'Days in UTC, both included; at most 366 days'), field('Group by', groupBy),
    h('div', { class: 'actions' }, show),
  );
  const c = report.currency;
  const t = report.totals;
  const pager = (label: string, cursor: string | null) =>
    cursor ? h('button', { type: 'button', class: 'secondary', onclick: (ev: Event) => void act(ev.currentTarget as HTMLButtonElement, async () => ((view.cursor = cursor), await again())) }, label) : null;
  const chart = h('div', { class: 'chart', 'data-group-by': report.groupBy, 'data-points': report.items.length });
  const p = report.pagination;
  clear(
    root,
    h('h1', {}, 'Profit'),
    h('p', {}, `What your supplier parts earned, in the store's currency (${c}): what they sold for, their landed cost (items and shipping, each converted at the rate recorded with it; each order's page shows the rate), the payment provider's fees and the margin.`),
    form,
    h(
      'section',
      { class: 'card totals' },
      h('h2', {}, `${report.from} to ${report.to}`),
      h(
        'dl',
        {},
        h('dt', {}, 'Orders'), h('dd', { 'data-total': 'orders' }, String(t.orders)),
        h('dt', {}, 'Supplier parts'), h('dd', { 'data-total': 'parts' }, String(t.parts)),
        h('dt', {}, 'Sold for'), h('dd', { 'data-total': 'revenue' }, money(t.revenueMinor, c)),
        h('dt', {}, 'Landed cost'), h('dd', { 'data-total': 'landedCost' }, money(t.landedCostMinor, c)),
        h('dt', {}, 'Payment fees'), h('dd', { 'data-total': 'paymentFee' }, money(t.paymentFeeMinor, c)),
        h('dt', {}, 'Supplier credits'), h('dd', { 'data-total': 'supplierCredit' }, money(t.supplierCreditMinor ?? 0, c)),
        ...(t.refundMinor === undefined ? [] : [h('dt', {}, 'Refunds'), h('dd', { 'data-total': 'refund' }, money(t.refundMinor, c))]),
        h('dt', {}, 'Margin'), h('dd', { 'data-total': 'result' }, h('strong', { class: t.resultMinor < 0 ? 'neg' : 'pos' }, money(t.resultMinor, c))),
      ),
      t.incompleteParts
        ? h('p', { class: 'notice waiting missing' }, `Not final: ${t.incompleteParts} part${t.incompleteParts === 1 ? '' : 's'} not yet accepted by the supplier; their landed cost is the one read at confirmation.`)
        : null,
    ),
    h('section', { class: 'card' }, h('h2', {}, report.groupBy === 'day' ? 'Over time' : `By ${GROUPS[report.groupBy].label.toLowerCase()}`), report.items.length ? chart : h('p', {}, 'Nothing sold in this range.')),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, `Rows (${p.totalCount})`),
      report.items.length ? rowsTable(report) : h('p', {}, 'No rows.'),
      p.previousCursor || p.hasMore ? h('div', { class: 'actions' }, pager('Previous', p.previousCursor), pager('Next', p.hasMore ? p.nextCursor : null)) : null,
    ),
  );
  if (report.items.length) await drawChart(chart, report);
}

function rowsTable(r: ProfitReport): HTMLElement {
  const c = r.currency;
  const refunds = r.totals.refundMinor !== undefined;
  const cols = [GROUPS[r.groupBy].column, 'Orders', 'Parts', 'Sold for', ...(refunds ? ['Refunds'] : []), 'Landed cost', 'Supplier credits', 'Payment fees', 'Margin', 'Not final'];
  return h(
    'table',
    { class: 'profit-rows' },
    h('thead', {}, h('tr', {}, ...cols.map((x) => h('th', {}, x)))),
    h(
      'tbody',
      {},
      ...r.items.map((i) =>
        h(
          'tr',
          { 'data-key': i.key },
          h('td', {}, i.label),
          h('td', { class: 'num' }, String(i.orders)),
          h('td', { class: 'num' }, String(i.parts)),
          h('td', { class: 'num' }, money(i.revenueMinor, c)),
          ...(refunds ? [h('td', { class: 'num' }, money(i.refundMinor ?? 0, c))] : []),
          h('td', { class: 'num' }, money(i.landedCostMinor, c)),
          h('td', { class: 'num' }, money(i.supplierCreditMinor ?? 0, c)),
          h('td', { class: 'num' }, money(i.paymentFeeMinor, c)),
          h('td', { class: `num ${i.resultMinor < 0 ? 'neg' : 'pos'}` }, money(i.resultMinor, c)),
          h('td', { class: 'num' }, i.incompleteParts ? `${i.incompleteParts} part${i.incompleteParts === 1 ? '' : 's'}` : ''),
        ),
      ),
    ),
  );
}

/** Sold for, landed cost and margin of the page's rows: lines over the days, or bars per product or connection. */
async function drawChart(box: HTMLElement, r: ProfitReport): Promise<void> {
  let uPlot: UPlotCtor;
  try {
    uPlot = await loadUPlot();
  } catch (err) {
    box.append(h('p', { class: 'notice error' }, (err as Error).message));
    return;
  }
  const c = r.currency;
  const byDay = r.groupBy === 'day';
  // Amounts stay in minor units; only the axis and the legend turn them into money.
  const rows = byDay ? everyDay(r) : r.items;
  const x = byDay ? rows.map((i) => dayTs(i.key)) : rows.map((_, n) => n);
  const fmt = (_u: unknown, v: number | null) => (v === null ? '—' : money(v, c));
  const bars = !byDay && uPlot.paths.bars ? (size: number) => uPlot.paths.bars!({ size: [size, 120] }) : null;
  const refunds = r.totals.refundMinor !== undefined;
  const series = [
    { label: 'Sold for', stroke: '#2563eb', fill: byDay ? undefined : 'rgba(37,99,235,0.25)', width: 2, value: fmt, paths: bars?.(0.8) },
    { label: 'Landed cost', stroke: '#b45309', fill: byDay ? undefined : 'rgba(180,83,9,0.35)', width: 2, value: fmt, paths: bars?.(0.55) },
    { label: 'Margin', stroke: '#15803d', fill: byDay ? undefined : 'rgba(21,128,61,0.6)', width: 2, value: fmt, paths: bars?.(0.3) },
    // Money back after the sale, each its own series: suppliers' credits, and shoppers' refunds when the report has them.
    { label: 'Supplier credits', stroke: '#7c3aed', width: 2, dash: [6, 4], value: fmt, paths: bars?.(0.2) },
    ...(refunds ? [{ label: 'Refunds', stroke: '#dc2626', width: 2, dash: [2, 3], value: fmt, paths: bars?.(0.15) }] : []),
  ];
  const labels = r.items.map((i) => i.label);
  const opts = {
    width: Math.max(320, box.clientWidth || 800),
    height: 280,
    scales: {
      x: byDay ? { time: true, range: (_u: unknown, min: number, max: number) => [min - 43_200, max + 43_200] } : { time: false, range: [-0.5, labels.length - 0.5] },
      // Always from zero (or below it, at a loss), so bars and lines compare honestly.
      y: { range: (_u: unknown, min: number, max: number) => [Math.min(0, min), Math.max(0, max) * 1.1 || 1] },
    },
    series: [{ label: byDay ? 'Day' : GROUPS[r.groupBy].label, value: byDay ? undefined : (_u: unknown, v: number) => labels[v] ?? '' }, ...series],
    axes: [
      byDay ? {} : { splits: () => labels.map((_, n) => n), values: (_u: unknown, splits: number[]) => splits.map((n) => (labels[n] ?? '').slice(0, 18)) },
      { size: 80, values: (_u: unknown, splits: number[]) => splits.map((v) => money(v, c)) },
    ],
  };
  const credits = rows.map((i) => i.supplierCreditMinor ?? 0);
  const data = [x, rows.map((i) => i.revenueMinor), rows.map((i) => i.landedCostMinor), rows.map((i) => i.resultMinor), credits, ...(refunds ? [rows.map((i) => i.refundMinor ?? 0)] : [])];
  new uPlot(opts, data, box);
}

const dayTs = (key: string) => Date.UTC(+key.slice(0, 4), +key.slice(5, 7) - 1, +key.slice(8, 10)) / 1000;

/**
 * The rows of the days on screen, a day without a row at zero (nothing sold then): the whole range when it fits on one
 * page, else the page's first to last day.
 */
function everyDay(r: ProfitReport): Array<Pick<ProfitRow, 'key' | 'revenueMinor' | 'landedCostMinor' | 'resultMinor' | 'supplierCreditMinor' | 'refundMinor'>> {
  const whole = !r.pagination.hasMore && !r.pagination.previousCursor;
  const first = whole ? r.from : r.items[0].key;
  const last = whole ? r.to : r.items[r.items.length - 1].key;
  const byKey = new Map(r.items.map((i) => [i.key, i]));
  const out = [];
  for (let t = dayTs(first); t <= dayTs(last); t += 86_400) {
    const key = new Date(t * 1000).toISOString().slice(0, 10);
    out.push(byKey.get(key) ?? { key, revenueMinor: 0, landedCostMinor: 0, resultMinor: 0, supplierCreditMinor: 0, refundMinor: 0 });
  }
  return out;
}
