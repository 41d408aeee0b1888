import type { INodeProperties } from 'n8n-workflow';

export const linkIdField: INodeProperties = {
	displayName: 'Link ID',
	name: 'linkId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID of the product link',
};
