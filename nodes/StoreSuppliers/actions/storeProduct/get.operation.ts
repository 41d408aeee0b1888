import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, simplified, simplifyField, storeId } from '../helpers';

export const routing: Route = { operationId: 'getStoreProduct', method: 'GET', path: '/api/store-products/{storeId}/{productId}' };

const properties: INodeProperties[] = [
	{
		displayName: 'Store Product',
		name: 'productId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		typeOptions: { loadOptionsDependsOn: ['store.value'] },
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchStoreProducts', searchable: true } },
			{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. 3f1b0d4e-2a7c-4e8b-9a51-6c2d8e0f7b13' },
		],
	},
];

export const description = [
	...updateDisplayOptions({ show: { resource: ['storeProduct'], operation: ['get'] } }, properties),
	simplifyField('storeProduct', 'get', false),
];

/** One store product with its variants (their IDs are what Create of a store order takes). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const params = { storeId: storeId.call(this, itemIndex), productId: idParameter.call(this, 'productId', itemIndex, 'The store product') };
	return simplified.call(this, itemIndex, 'storeProduct', (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject);
}
