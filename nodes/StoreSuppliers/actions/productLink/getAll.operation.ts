import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listLimit, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'listProductLinks',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}/links',
};

const properties: INodeProperties[] = [
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Connection Name or ID',
				name: 'connectionId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getConnections', loadOptionsDependsOn: ['store.value'] },
				default: '',
				description:
					'Only links to this connection\'s products. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Store Product ID',
				name: 'productId',
				type: 'string',
				default: '',
				description: 'Only the link of this store product',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['productLink'], operation: ['getAll'] } },
	properties,
);

/** The store's product links, newest first, one item per link. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return await callRouteAllItems.call(this, routing, { storeId: storeId.call(this, itemIndex) }, {
		qs: { connectionId: filters.connectionId, productId: filters.productId },
		limit: listLimit.call(this, itemIndex),
		itemIndex,
	});
}
