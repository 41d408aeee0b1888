import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { supplierProductIdField } from '../common.descriptions';
import { connectionParams, idParameter } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'getSupplierProduct', method: 'GET', path: '/api/store-suppliers/{storeId}/{id}/products/{supplierProductId}' };

const properties: INodeProperties[] = [connectionRLC, supplierProductIdField];

export const description = updateDisplayOptions({ show: { resource: ['supplierProduct'], operation: ['get'] } }, properties);

/** One supplier product with its variants, costs and stock. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const supplierProductId = idParameter.call(this, 'supplierProductId', itemIndex, 'The supplier product ID');
  const params = { ...connectionParams.call(this, itemIndex), supplierProductId };
  return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
