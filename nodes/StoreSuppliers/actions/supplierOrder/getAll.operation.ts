import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listLimit, simplified, simplifyField, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'listSupplierOrders',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}/orders',
};

export const STATUS_OPTIONS = [
	{ name: 'Cancelled', value: 'cancelled' },
	{ name: 'Confirmed', value: 'confirmed' },
	{ name: 'Delivered', value: 'delivered' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'Needs Review', value: 'needsReview' },
	{ name: 'Processing', value: 'processing' },
	{ name: 'Queued', value: 'queued' },
	{ name: 'Shipped', value: 'shipped' },
	{ name: 'Submitted', value: 'submitted' },
];

export const CONTRACT_MODEL_OPTIONS = [
	{ name: 'Promise to Sell', value: 'promiseToSell' },
	{ name: 'Standard', value: 'standard' },
];

/** Filters the list and the trigger share. */
export const SHARED_ORDER_FILTERS: INodeProperties[] = [
	{
		displayName: 'Connection Name or ID',
		name: 'integrationId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getConnections', loadOptionsDependsOn: ['store.value'] },
		default: '',
		description:
			'Only supplier orders of this connection. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Contract Model',
		name: 'contractModel',
		type: 'options',
		options: [{ name: 'Any', value: '' }, ...CONTRACT_MODEL_OPTIONS],
		default: '',
	},
];

const properties: INodeProperties[] = [
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			...SHARED_ORDER_FILTERS,
			{
				displayName: 'Needs Review',
				name: 'needsReview',
				type: 'boolean',
				default: true,
				description: 'Whether to return only supplier orders waiting for review',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [{ name: 'Any', value: '' }, ...STATUS_OPTIONS],
				default: '',
			},
			{
				displayName: 'Store Order ID',
				name: 'orderId',
				type: 'string',
				default: '',
				description: 'Only the supplier orders of this store order',
			},
		],
	},
];

export const description = [
	...updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['getAll'] } }, properties),
	simplifyField('supplierOrder', 'getAll', true),
];

/** Supplier orders, newest first, filtered; with Return All every page is read before any is returned. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const rows = await callRouteAllItems.call(this, routing, { storeId: storeId.call(this, itemIndex) }, {
		qs: {
			status: filters.status,
			needsReview: filters.needsReview === undefined ? undefined : Boolean(filters.needsReview),
			integrationId: filters.integrationId,
			orderId: filters.orderId,
			contractModel: filters.contractModel,
		},
		limit: listLimit.call(this, itemIndex),
		itemIndex,
	});
	return rows.map((row) => simplified.call(this, itemIndex, 'supplierOrder', row));
}
