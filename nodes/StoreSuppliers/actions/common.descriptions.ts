import type { INodeProperties } from 'n8n-workflow';

const UUID_REGEX = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const storeRLC: INodeProperties = {
	displayName: 'Store',
	name: 'store',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The store to act on; the API key must belong to its owner or to staff with the needed permission',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchStores', searchable: true },
		},
		{
			displayName: 'ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 2870b58b-f6e2-430a-8d1e-ebdd8a7bb0ee',
			validation: [{ type: 'regex', properties: { regex: UUID_REGEX, errorMessage: 'Not a valid store ID' } }],
		},
	],
};

export const connectionRLC: INodeProperties = {
	displayName: 'Connection',
	name: 'connection',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: "The store's supplier connection",
	typeOptions: { loadOptionsDependsOn: ['store.value'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchConnections', searchable: true },
		},
		{
			displayName: 'ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 6c6defb3-45c1-48e0-aeee-4836c0be9511',
			validation: [{ type: 'regex', properties: { regex: UUID_REGEX, errorMessage: 'Not a valid connection ID' } }],
		},
	],
};

export const supplierKeyOption: INodeProperties = {
	displayName: 'Supplier Name or ID',
	name: 'supplierKey',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSuppliers', loadOptionsDependsOn: ['store.value'] },
	default: '',
	required: true,
	description:
		'The supplier, as the catalogue names it. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const modeOption: INodeProperties = {
	displayName: 'Mode',
	name: 'mode',
	type: 'options',
	options: [
		{ name: 'Live', value: 'live', description: 'Real orders at the supplier' },
		{ name: 'Test', value: 'test', description: "Orders go to the supplier's test environment, where it has one" },
	],
	default: 'live',
};

export const supplierApiKeyField: INodeProperties = {
	displayName: 'Supplier API Key',
	name: 'supplierApiKey',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
	description: "The API key of the merchant's account at the supplier; it is checked with the supplier before it is stored",
};

export function returnAllOrLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}
