import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../transport';
import { optionalFields } from './common.descriptions';
import { type BULKY_FIELDS, simplified } from './helpers';

/** The fields of every Get Many: Return All, Limit, and the list's filters when it has any. */
export function getManyFields(filters: INodeProperties[] = []): INodeProperties[] {
  const fields: INodeProperties[] = [
    {
      displayName: 'Return All',
      name: 'returnAll',
      type: 'boolean',
      default: false,
      description: 'Whether to return all results or only up to a given limit',
    },
    {
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      typeOptions: { minValue: 1 },
      default: 50,
      description: 'Max number of results to return',
      displayOptions: { show: { returnAll: [false] } },
    },
  ];
  if (!filters.length) return fields;
  return [...fields, optionalFields('filters', filters)];
}

/** How many rows the item asks for: undefined for Return All. */
export function limitOf(this: IExecuteFunctions, itemIndex: number): number | undefined {
  return this.getNodeParameter('returnAll', itemIndex, false) ? undefined : this.getNodeParameter('limit', itemIndex, 50);
}

/** The item's Filters (empty when none is set). */
export function filtersOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
  return this.getNodeParameter('filters', itemIndex, {});
}

/**
 * One Get Many of a cursor-paged list: the rows Return All or Limit asks for, through the one pager,
 * each simplified when the list has bulky fields and Simplify is on.
 */
export async function getMany(
  this: IExecuteFunctions,
  itemIndex: number,
  route: Route,
  params: Record<string, string>,
  { qs, simplify }: { qs?: IDataObject; simplify?: keyof typeof BULKY_FIELDS } = {},
): Promise<IDataObject[]> {
  const rows = await callRouteAllItems.call(this, route, params, { qs, limit: limitOf.call(this, itemIndex), itemIndex });
  return simplify ? rows.map((row) => simplified.call(this, itemIndex, simplify, row)) : rows;
}
