import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { simplified, simplifyField } from '../helpers';
import { supplierOrderIdField, supplierOrderParams } from './common';

export const routing: Route = { operationId: 'getSupplierOrder', method: 'GET', path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}' };

const properties: INodeProperties[] = [supplierOrderIdField];

export const description = [
  ...updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['get'] } }, properties),
  simplifyField('supplierOrder', 'get', false),
];

/** One supplier order with its history. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = supplierOrderParams.call(this, itemIndex);
  return simplified.call(this, itemIndex, 'supplierOrder', (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject);
}
