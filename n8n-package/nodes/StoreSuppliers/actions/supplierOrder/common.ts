import type { INodeProperties } from 'n8n-workflow';

import { connectionRLC } from '../common.descriptions';

export const supplierOrderIdField: INodeProperties = {
	displayName: 'Supplier Order ID',
	name: 'supplierOrderId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID (_id) of the supplier order',
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
