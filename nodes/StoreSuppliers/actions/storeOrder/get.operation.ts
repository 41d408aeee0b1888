import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { simplified, simplifyField } from '../helpers';
import { storeOrderParams, storeOrderRLC } from './common';

export const routing: Route = { operationId: 'getStoreOrder', method: 'GET', path: '/api/store-orders/{storeId}/{orderId}' };

const properties: INodeProperties[] = [storeOrderRLC];

export const description = [
  ...updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['get'] } }, properties),
  simplifyField('storeOrder', 'get', false),
];

/** One store order with its items, parts and (for a key that may see suppliers) its supplier orders. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = storeOrderParams.call(this, itemIndex);
  return simplified.call(this, itemIndex, 'storeOrder', (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject);
}
