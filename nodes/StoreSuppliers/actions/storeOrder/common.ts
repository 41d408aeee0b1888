import type { INodeProperties } from 'n8n-workflow';

const UUID_REGEX = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A store order: picked from the store's newest orders (those needing attention first), or by ID. */
export const storeOrderRLC: INodeProperties = {
	displayName: 'Store Order',
	name: 'storeOrderId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	typeOptions: { loadOptionsDependsOn: ['store.value'] },
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchStoreOrders', searchable: true } },
		{
			displayName: 'ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 0c2e7c1a-7f3b-4c55-9a57-52b0d4f4b7a1',
			validation: [{ type: 'regex', properties: { regex: UUID_REGEX, errorMessage: 'Not a valid store order ID' } }],
		},
	],
};

export const ORDER_STATUS_OPTIONS = [
	{ name: 'Cancelled', value: 'cancelled' },
	{ name: 'Confirmed', value: 'confirmed' },
	{ name: 'Delivered', value: 'delivered' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'Processing', value: 'processing' },
	{ name: 'Shipped', value: 'shipped' },
];
