import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionParams, idParameter } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'resolveSupplierProductUrl', method: 'POST', path: '/api/store-suppliers/{storeId}/{id}/products/resolve-url' };

const properties: INodeProperties[] = [
  connectionRLC,
  {
    displayName: 'Product URL',
    name: 'url',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. https://shop.sandbox-supplier.test/p/SBX-P00017',
    description: "A link to the product's page at the supplier; the address itself is never fetched",
  },
];

export const description = updateDisplayOptions({ show: { resource: ['supplierProduct'], operation: ['resolveUrl'] } }, properties);

/** Turns a pasted product link into the supplier's product ID, with the product. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = connectionParams.call(this, itemIndex);
  const body = { url: idParameter.call(this, 'url', itemIndex, 'The product URL') };
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
