import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { callRoute, callRouteAllItems, type Route } from '../transport';
import { routing as listConnections } from '../actions/connection/getAll.operation';

export interface Connection {
  id: string;
  supplierKey: string;
  mode: string;
  accountLabel?: string;
  enabled?: boolean;
}

/** The store the node's Store field names ('' while none is chosen: the lists that need one stay empty). */
export function currentStoreId(this: ILoadOptionsFunctions): string {
  const value = this.getCurrentNodeParameter('store', { extractValue: true });
  return value === undefined || value === null ? '' : String(value).trim();
}

/** A record's field as text ('' when it has none). */
export const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** The one list-search helper: the rows any of whose texts contains the filter (letter case aside), as picker items. */
export function searchResults<T>(
  rows: T[],
  filter: string | undefined,
  textsOf: (row: T) => unknown[],
  itemOf: (row: T) => INodeListSearchItems,
): INodeListSearchResult {
  const needle = (filter ?? '').toLowerCase();
  const matches = (row: T) => !needle || textsOf(row).some((t) => text(t).toLowerCase().includes(needle));
  return { results: rows.filter(matches).map(itemOf) };
}

/** The newest 100 records of a cursor-paged list of the chosen store (one page, through the one pager). */
export async function newestOf(this: ILoadOptionsFunctions, route: Route, qs: IDataObject = {}): Promise<IDataObject[]> {
  const storeId = currentStoreId.call(this);
  if (!storeId) return [];
  return await callRouteAllItems.call(this, route, { storeId }, { qs, limit: 100 });
}

/** The chosen store's connections (not paged by the service). */
export async function connectionsOf(this: ILoadOptionsFunctions): Promise<Connection[]> {
  const storeId = currentStoreId.call(this);
  if (!storeId) return [];
  return (await callRoute.call(this, listConnections, { storeId })) as Connection[];
}

/** `name (suffix)`, unless the name says it already (labels from the service may carry the mode). */
export function withSuffix(name: string, suffix: string): string {
  return name.toLowerCase().includes(`(${suffix.toLowerCase()})`) ? name : `${name} (${suffix})`;
}

export function connectionName(c: Connection): string {
  const label = c.accountLabel ? ` – ${c.accountLabel.replace(new RegExp(`\\s*\\(${c.mode}\\)\\s*$`, 'i'), '')}` : '';
  return `${c.supplierKey} (${c.mode})${label}${c.enabled === false ? ' [off]' : ''}`;
}
