import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { priceRuleField, productsField, syncField } from '../common.descriptions';
import { compact, connectionParams, priceRuleOf, productsOf } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'importSupplierProducts', method: 'POST', path: '/api/store-suppliers/{storeId}/{id}/import', idempotent: true };

const properties: INodeProperties[] = [
  connectionRLC,
  productsField,
  priceRuleField,
  syncField,
  {
    displayName: 'Product Status',
    name: 'status',
    type: 'options',
    options: [
      { name: 'Active', value: 'active' },
      { name: 'Draft', value: 'draft' },
    ],
    default: 'active',
    description: 'The status of the store products created',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['import'], operation: ['importProducts'] } }, properties);

/**
 * Imports supplier products as store products with links. Up to 50 answer what was created
 * (products, links, errors); more answer a background job to read with Get Job.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const sync = this.getNodeParameter('sync', itemIndex, {}) as IDataObject;
  const body = compact({
    products: productsOf.call(this, itemIndex),
    priceRule: priceRuleOf(this.getNodeParameter('priceRule', itemIndex, {}) as IDataObject),
    sync: Object.keys(sync).length ? sync : undefined,
    status: this.getNodeParameter('status', itemIndex, 'active') as string,
  });
  const params = connectionParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
