import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listLimit, simplified, simplifyField, storeId } from '../helpers';

export const routing: Route = { operationId: 'listStoreProducts', method: 'GET', path: '/api/store-products/{storeId}' };

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
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Any', value: '' },
					{ name: 'Active', value: 'active' },
					{ name: 'Archived', value: 'archived' },
					{ name: 'Draft', value: 'draft' },
				],
				default: '',
			},
		],
	},
];

export const description = [
	...updateDisplayOptions({ show: { resource: ['storeProduct'], operation: ['getAll'] } }, properties),
	simplifyField('storeProduct', 'getAll', true),
];

/** Store products, newest first. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const rows = await callRouteAllItems.call(this, routing, { storeId: storeId.call(this, itemIndex) }, {
		qs: { status: filters.status },
		limit: listLimit.call(this, itemIndex),
		itemIndex,
	});
	return rows.map((row) => simplified.call(this, itemIndex, 'storeProduct', row));
}
