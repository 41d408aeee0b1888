import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { priceRuleField, productsField } from '../common.descriptions';
import { compact, connectionParams, priceRuleOf, productsOf } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'previewImport', method: 'POST', path: '/api/store-suppliers/{storeId}/{id}/import/preview' };

const properties: INodeProperties[] = [connectionRLC, productsField, priceRuleField];

export const description = updateDisplayOptions({ show: { resource: ['import'], operation: ['preview'] } }, properties);

/** Prices the chosen products with the price rule and names duplicates; nothing is written or charged. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const body = compact({
    products: productsOf.call(this, itemIndex),
    priceRule: priceRuleOf(this.getNodeParameter('priceRule', itemIndex, {}) as IDataObject),
  });
  const params = connectionParams.call(this, itemIndex);
  const preview = (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
  return { ...preview, items: ((preview.items ?? []) as IDataObject[]).map(withMargins) };
}

/** Each variant's margin: profit as a percentage of the price, to one decimal (null without a price). */
function withMargins(item: IDataObject): IDataObject {
  const variants = ((item.variants ?? []) as IDataObject[]).map((v) => {
    const price = Number(v.priceMinor);
    const margin = price > 0 ? Math.round((Number(v.profitMinor) / price) * 1000) / 10 : null;
    return { ...v, marginPercent: margin };
  });
  return { ...item, variants };
}
