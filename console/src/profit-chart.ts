/**
 * The profit page's chart of the page's rows, drawn by uPlot (vendored as /console/uplot.js; docs/decisions.md, "The
 * profit page's chart").
 */
import { h } from './dom.js';
import { money } from './format.js';
import { GROUPS, type ProfitReport, type ProfitRow } from './profit-report.js';

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

/** Sold for, landed cost and margin of the page's rows: lines over the days, or bars per product or connection. */
export async function drawChart(box: HTMLElement, r: ProfitReport): Promise<void> {
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
      x: byDay
        ? { time: true, range: (_u: unknown, min: number, max: number) => [min - 43_200, max + 43_200] }
        : { time: false, range: [-0.5, labels.length - 0.5] },
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
  const data = [
    x,
    rows.map((i) => i.revenueMinor),
    rows.map((i) => i.landedCostMinor),
    rows.map((i) => i.resultMinor),
    credits,
    ...(refunds ? [rows.map((i) => i.refundMinor ?? 0)] : []),
  ];
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
