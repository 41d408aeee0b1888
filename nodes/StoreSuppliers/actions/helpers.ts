import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Route } from '../transport';

/** One operation: its fields, the route it calls, and what it does for one input item. */
export interface OperationModule {
  description: INodeProperties[];
  routing: Route;
  execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

/** A resource locator or plain string parameter, as a trimmed string; required ones must not be empty. */
export function idParameter(this: IExecuteFunctions, name: string, itemIndex: number, label: string): string {
  const raw = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
  const value = raw === undefined || raw === null ? '' : String(raw).trim();
  if (!value) throw new NodeOperationError(this.getNode(), `${label} is required`, { itemIndex });
  return value;
}

export function storeId(this: IExecuteFunctions, itemIndex: number): string {
  return idParameter.call(this, 'store', itemIndex, 'The store');
}

export function connectionId(this: IExecuteFunctions, itemIndex: number): string {
  return idParameter.call(this, 'connection', itemIndex, 'The connection');
}

/** The path parameters of a connection's own routes (`/api/store-suppliers/{storeId}/{id}/...`). */
export function connectionParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; id: string } {
  return { storeId: storeId.call(this, itemIndex), id: connectionId.call(this, itemIndex) };
}

/** The part of a store order that a connection serves: `supplier:<connection id>` (given whole, kept). */
export function partKeyOf(connection: string): string {
  return connection === 'store' || connection.startsWith('supplier:') ? connection : `supplier:${connection}`;
}

/** A JSON parameter given as text or as an object (from an expression). */
export function jsonParameter(this: IExecuteFunctions, name: string, itemIndex: number, label: string): IDataObject {
  return jsonObject.call(this, this.getNodeParameter(name, itemIndex, {}) as unknown, itemIndex, label);
}

/** A JSON object from a `json` field: text is parsed, an object (from an expression) is taken as it is. */
export function jsonObject(this: IExecuteFunctions, raw: unknown, itemIndex: number, label: string): IDataObject {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (!raw.trim()) return {};
    try {
      value = JSON.parse(raw);
    } catch {
      throw new NodeOperationError(this.getNode(), `${label} is not valid JSON`, { itemIndex });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NodeOperationError(this.getNode(), `${label} must be a JSON object`, { itemIndex });
  }
  return value as IDataObject;
}

export function commaList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  return String(value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The price rule collection as the service takes it; empty texts are left out. */
export function priceRuleOf(collection: IDataObject | undefined): IDataObject | undefined {
  if (!collection || Object.keys(collection).length === 0) return undefined;
  const rule: IDataObject = {};
  for (const [key, value] of Object.entries(collection)) {
    if (value === '' || value === undefined || value === null) continue;
    rule[key] = key === 'multiplier' || key === 'compareAtMultiplier' ? String(value) : value;
  }
  return Object.keys(rule).length ? rule : undefined;
}

export function productsOf(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
  const collection = this.getNodeParameter('products', itemIndex, {}) as { product?: IDataObject[] };
  const products = (collection.product ?? [])
    .map((p) => {
      const supplierProductId = String(p.supplierProductId ?? '').trim();
      const variantIds = commaList(p.variantIds);
      return { supplierProductId, ...(variantIds.length ? { variantIds } : {}) };
    })
    .filter((p) => p.supplierProductId);
  if (!products.length) throw new NodeOperationError(this.getNode(), 'Add at least one supplier product', { itemIndex });
  return products;
}

export function variantsOf(collection: { variant?: IDataObject[] } | undefined): IDataObject[] {
  return (collection?.variant ?? []).map((v) => ({
    storeVariantId: String(v.storeVariantId ?? '').trim(),
    supplierVariantId: String(v.supplierVariantId ?? '').trim(),
  }));
}

/** Drops keys whose value is undefined, so optional fields are left out of a body. */
export function compact(body: IDataObject): IDataObject {
  const out: IDataObject = {};
  for (const [key, value] of Object.entries(body)) if (value !== undefined) out[key] = value;
  return out;
}

/** The Simplify switch of reads: on by default for Get Many, off for Get. */
export function simplifyField(resource: string, operation: string, byDefault: boolean): INodeProperties {
  const field: INodeProperties = {
    displayName: 'Simplify',
    name: 'simplify',
    type: 'boolean',
    default: false,
    displayOptions: { show: { resource: [resource], operation: [operation] } },
    description: 'Whether to return a simplified version of the response instead of the raw data (leaves out the history, addresses and other bulky fields)',
  };
  return byDefault ? { ...field, default: true } : field;
}

/** The bulky fields Simplify leaves out, per kind of record. */
export const BULKY_FIELDS = {
  supplierOrder: ['events', 'destination'],
  storeOrder: ['items', 'supplierOrders', 'destination'],
  storeProduct: ['description'],
} as const;

export function simplified(this: IExecuteFunctions, itemIndex: number, kind: keyof typeof BULKY_FIELDS, row: IDataObject): IDataObject {
  if (!(this.getNodeParameter('simplify', itemIndex, false) as boolean)) return row;
  const out: IDataObject = { ...row };
  for (const field of BULKY_FIELDS[kind]) delete out[field];
  return out;
}

/** The service's shape of a routing rule: `{ rule }`, or the fastest with its cap. */
export function routingRuleOf(rule: string, capPercent: unknown): IDataObject {
  return rule === 'fastest' ? { rule, maxCostAboveCheapestPercent: Number(capPercent ?? 10) } : { rule };
}

/** A link's routing from its collection: null for the store's rule, undefined when not given. */
export function linkRoutingOf(fields: IDataObject): IDataObject | null | undefined {
  if (fields.routingRule === undefined) return undefined;
  return fields.routingRule === 'store' ? null : routingRuleOf(String(fields.routingRule), fields.maxCostAboveCheapestPercent);
}
