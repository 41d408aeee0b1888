import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../../transport';
import { connectionRLC, returnAllOrLimit } from '../common.descriptions';
import { connectionId, listLimit, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'searchSupplierProducts',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}/{id}/products',
};

const properties: INodeProperties[] = [
	connectionRLC,
	{
		displayName: 'Search Text',
		name: 'query',
		type: 'string',
		default: '',
		placeholder: 'e.g. lamp',
		description: "Words to look for in the supplier's catalogue; empty to browse it all",
	},
	...returnAllOrLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['supplierProduct'], operation: ['search'] } },
	properties,
);

/** Browses or searches the supplier's catalogue, one item per supplier product. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const query = (this.getNodeParameter('query', itemIndex, '') as string).trim();
	const params = { storeId: storeId.call(this, itemIndex), id: connectionId.call(this, itemIndex) };
	return await callRouteAllItems.call(this, routing, params, {
		qs: { query: query || undefined },
		limit: listLimit.call(this, itemIndex),
		itemIndex,
	});
}
