import type { INodeProperties } from 'n8n-workflow';

export const linkIdField: INodeProperties = {
	displayName: 'Product Link',
	name: 'linkId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The product link (a store product tied to a supplier product)',
	typeOptions: { loadOptionsDependsOn: ['store.value'] },
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchProductLinks', searchable: true } },
		{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. 5e8d2a1c-3f4b-4a6e-9c7d-1b0a2f3e4d5c' },
	],
};
