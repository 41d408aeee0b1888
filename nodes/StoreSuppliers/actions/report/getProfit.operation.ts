import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'getProfitReport', method: 'GET', path: '/api/store-suppliers/{storeId}/reports/profit' };

const properties: INodeProperties[] = [
  {
    displayName: 'From',
    name: 'from',
    type: 'string',
    required: true,
    default: '',
    placeholder: '2026-12-01',
    description: 'The first day of the range (UTC), YYYY-MM-DD',
  },
  {
    displayName: 'To',
    name: 'to',
    type: 'string',
    required: true,
    default: '',
    placeholder: '2026-12-31',
    description: 'The last day of the range (UTC), YYYY-MM-DD; at most 366 days after From',
  },
  {
    displayName: 'Group By',
    name: 'groupBy',
    type: 'options',
    options: [
      { name: 'Day', value: 'day' },
      { name: 'Product', value: 'product' },
      { name: 'Connection', value: 'connection' },
    ],
    default: 'day',
    description: 'What each row of the report sums',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['report'], operation: ['getProfit'] } }, properties);

/** The most pages one report is read in (100 rows each): a year of days, or many products, still fits. */
const MAX_PAGES = 100;

/** A day the parameter gives: a date-time's day too (an expression like {{ $today }}), as YYYY-MM-DD. */
function dayOf(this: IExecuteFunctions, name: 'from' | 'to', itemIndex: number): string {
  const raw = this.getNodeParameter(name, itemIndex) as unknown;
  const text = String(raw ?? '')
    .trim()
    .slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text))
    throw new NodeOperationError(this.getNode(), `${name === 'from' ? 'From' : 'To'} must be a day, YYYY-MM-DD`, { itemIndex });
  return text;
}

/** The store's profit over the range, in its currency: one item with the totals and every row (all pages read). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const qs: IDataObject = {
    from: dayOf.call(this, 'from', itemIndex),
    to: dayOf.call(this, 'to', itemIndex),
    groupBy: this.getNodeParameter('groupBy', itemIndex) as string,
    pageSize: 100,
  };
  const params = { storeId: storeId.call(this, itemIndex) };
  let report = (await callRoute.call(this, routing, params, { qs, itemIndex })) as IDataObject & { items: IDataObject[]; pagination: IDataObject };
  const items = [...report.items];
  for (let pages = 1; report.pagination.hasMore && report.pagination.nextCursor && pages < MAX_PAGES; pages++) {
    report = (await callRoute.call(this, routing, params, { qs: { ...qs, cursor: report.pagination.nextCursor as string }, itemIndex })) as typeof report;
    items.push(...report.items);
  }
  // One item for the whole range: its rows in full, so no page's pagination.
  return { currency: report.currency, from: report.from, to: report.to, groupBy: report.groupBy, totals: report.totals, items };
}
