import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, simplified, simplifyField, storeId } from '../helpers';
import { recordLocator } from '../locator';

export const routing: Route = { operationId: 'getStoreProduct', method: 'GET', path: '/api/store-products/{storeId}/{productId}' };

const productLocator = recordLocator({
  displayName: 'Store Product',
  name: 'productId',
  search: 'searchStoreProducts',
  example: '3f1b0d4e-2a7c-4e8b-9a51-6c2d8e0f7b13',
});

export const description = [
  ...updateDisplayOptions({ show: { resource: ['storeProduct'], operation: ['get'] } }, [productLocator]),
  simplifyField('storeProduct', 'get', false),
];

/** One store product with its variants (their IDs are what Create of a store order takes). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = { storeId: storeId.call(this, itemIndex), productId: idParameter.call(this, 'productId', itemIndex, 'The store product') };
  return simplified.call(this, itemIndex, 'storeProduct', (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject);
}
