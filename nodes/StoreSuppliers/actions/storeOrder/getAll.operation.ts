import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listLimit, simplified, simplifyField, storeId } from '../helpers';
import { ORDER_STATUS_OPTIONS } from './common';

export const routing: Route = { operationId: 'listStoreOrders', method: 'GET', path: '/api/store-orders/{storeId}' };

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
				displayName: 'Needs Attention',
				name: 'needsAttention',
				type: 'options',
				options: [
					{ name: 'Any', value: '' },
					{ name: 'Only Orders Needing Attention', value: 'true', description: 'A part waits for review or failed' },
					{ name: 'Only Orders Not Needing Attention', value: 'false' },
				],
				default: '',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [{ name: 'Any', value: '' }, ...ORDER_STATUS_OPTIONS],
				default: '',
			},
		],
	},
];

export const description = [
	...updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['getAll'] } }, properties),
	simplifyField('storeOrder', 'getAll', true),
];

/** Store orders, newest first, each with a summary of its parts. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const rows = await callRouteAllItems.call(this, routing, { storeId: storeId.call(this, itemIndex) }, {
		qs: { status: filters.status, needsAttention: filters.needsAttention ? filters.needsAttention === 'true' : undefined },
		limit: listLimit.call(this, itemIndex),
		itemIndex,
	});
	return rows.map((row) => simplified.call(this, itemIndex, 'storeOrder', row));
}
