import type { INodeProperties } from 'n8n-workflow';

import { connectionRLC } from '../common.descriptions';

export const supplierOrderIdField: INodeProperties = {
	displayName: 'Supplier Order',
	name: 'supplierOrderId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The supplier order (its _id); the list shows orders waiting for review first, with their reason',
	typeOptions: { loadOptionsDependsOn: ['store.value'] },
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchSupplierOrders', searchable: true } },
		{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. 9a3c1f0e-5b2d-4c7a-8e61-0f4b2d9c7a15' },
	],
};

export const orderIdField: INodeProperties = {
	displayName: 'Store Order ID',
	name: 'orderId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID of the store order whose part to act on',
};

/** The order part is the one a connection serves (its key is supplier:<connection ID>). */
export const partConnectionField: INodeProperties = {
	...connectionRLC,
	displayName: 'Order Part (Connection)',
	description: 'The supplier connection whose part of the store order to act on; its part key is supplier:<connection ID>',
};
