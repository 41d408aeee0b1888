/**
 * The profit page: `GET /api/store-suppliers/:storeId/reports/profit` over a date range, by day, product or supplier
 * connection: the range's totals, the rows (paged by the report's cursors) and a chart of the page's rows
 * (./profit-chart.ts).
 */
import { api, qs } from './api.js';
import { act, clear, field, h } from './dom.js';
import { money } from './format.js';
import type { Ctx } from './types.js';
import { drawChart } from './profit-chart.js';
import { GROUPS, type GroupBy, type ProfitReport } from './profit-report.js';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const view: { from: string; to: string; groupBy: GroupBy; cursor: string | null } = {
  from: isoDay(new Date(Date.now() - 29 * 86_400_000)),
  to: isoDay(new Date()),
  groupBy: 'day',
  cursor: null,
};

export async function profitPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const storeId = ctx.store!.id;
  const report = (
    await api<ProfitReport>(
      'GET',
      `/api/store-suppliers/${storeId}/reports/profit${qs({ from: view.from, to: view.to, groupBy: view.groupBy, pageSize: 50, cursor: view.cursor })}`,
    )
  ).result;
  const again = () => profitPage(root, ctx);
  const from = h('input', { type: 'date', name: 'from', required: true, value: view.from });
  const to = h('input', { type: 'date', name: 'to', required: true, value: view.to });
  const groupBy = h(
    'select',
    { name: 'groupBy' },
    ...(Object.keys(GROUPS) as GroupBy[]).map((g) => h('option', { value: g, selected: g === view.groupBy }, GROUPS[g].label)),
  );
  const show = h('button', { type: 'submit', class: 'primary' }, 'Show');
  const form = h(
    'form',
    {
      class: 'card range',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(show, async () => {
          Object.assign(view, { from: from.value, to: to.value, groupBy: groupBy.value as GroupBy, cursor: null });
          await again();
        })
      ),
    },
    field('From', from),
    field('To', to, 'Days in UTC, both included; at most 366 days'),
    field('Group by', groupBy),
    h('div', { class: 'actions' }, show),
  );
  const c = report.currency;
  const t = report.totals;
  const pager = (label: string, cursor: string | null) =>
    cursor
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: (ev: Event) => void act(ev.currentTarget as HTMLButtonElement, async () => ((view.cursor = cursor), await again())),
          },
          label,
        )
      : null;
  const chart = h('div', { class: 'chart', 'data-group-by': report.groupBy, 'data-points': report.items.length });
  const p = report.pagination;
  clear(
    root,
    h('h1', {}, 'Profit'),
    h(
      'p',
      {},
      `What your supplier parts earned, in the store's currency (${c}): what they sold for (less refunds to shoppers, also shown on their own), their landed cost (items and shipping, each converted at the rate recorded with it, less suppliers' credits, also shown on their own; each order's page shows the rate), the payment provider's fees and the margin. A payment's fees and refunds are shared among its order's products and suppliers by price.`,
    ),
    form,
    h(
      'section',
      { class: 'card totals' },
      h('h2', {}, `${report.from} to ${report.to}`),
      h(
        'dl',
        {},
        h('dt', {}, 'Orders'),
        h('dd', { 'data-total': 'orders' }, String(t.orders)),
        h('dt', {}, 'Supplier parts'),
        h('dd', { 'data-total': 'parts' }, String(t.parts)),
        h('dt', {}, 'Sold for'),
        h('dd', { 'data-total': 'revenue' }, money(t.revenueMinor, c)),
        h('dt', {}, 'Landed cost'),
        h('dd', { 'data-total': 'landedCost' }, money(t.landedCostMinor, c)),
        h('dt', {}, 'Payment fees'),
        h('dd', { 'data-total': 'paymentFee' }, money(t.paymentFeeMinor, c)),
        h('dt', {}, 'Supplier credits'),
        h('dd', { 'data-total': 'supplierCredit' }, money(t.supplierCreditMinor ?? 0, c)),
        ...(t.refundMinor === undefined ? [] : [h('dt', {}, 'Refunds'), h('dd', { 'data-total': 'refund' }, money(t.refundMinor, c))]),
        h('dt', {}, 'Margin'),
        h('dd', { 'data-total': 'result' }, h('strong', { class: t.resultMinor < 0 ? 'neg' : 'pos' }, money(t.resultMinor, c))),
      ),
      t.incompleteParts
        ? h(
            'p',
            { class: 'notice waiting missing' },
            `Not final: ${t.incompleteParts} part${t.incompleteParts === 1 ? '' : 's'} not yet accepted by the supplier; their landed cost is the one read at confirmation.`,
          )
        : null,
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, report.groupBy === 'day' ? 'Over time' : `By ${GROUPS[report.groupBy].label.toLowerCase()}`),
      report.items.length ? chart : h('p', {}, 'Nothing sold in this range.'),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, `Rows (${p.totalCount})`),
      report.items.length ? rowsTable(report) : h('p', {}, 'No rows.'),
      p.previousCursor || p.hasMore
        ? h('div', { class: 'actions' }, pager('Previous', p.previousCursor), pager('Next', p.hasMore ? p.nextCursor : null))
        : null,
    ),
  );
  if (report.items.length) await drawChart(chart, report);
}

function rowsTable(r: ProfitReport): HTMLElement {
  const c = r.currency;
  const refunds = r.totals.refundMinor !== undefined;
  const cols = [
    GROUPS[r.groupBy].column,
    'Orders',
    'Parts',
    'Sold for',
    ...(refunds ? ['Refunds'] : []),
    'Landed cost',
    'Supplier credits',
    'Payment fees',
    'Margin',
    'Not final',
  ];
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
