import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'getImportJob',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}/imports/{jobId}',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		default: '',
		required: true,
		description: 'The ID of a background import, as Import Products answered it',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['import'], operation: ['getJob'] } },
	properties,
);

/** Progress of a background import: status, total, done, failed, errors and created products. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const params = { storeId: storeId.call(this, itemIndex), jobId: idParameter.call(this, 'jobId', itemIndex, 'The job ID') };
	return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
