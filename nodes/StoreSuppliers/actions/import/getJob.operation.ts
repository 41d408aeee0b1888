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
		displayName: 'Import Job',
		name: 'jobId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'A background import: pick it from the store\'s jobs, or give the ID Import Products answered',
		typeOptions: { loadOptionsDependsOn: ['store.value'] },
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchImportJobs', searchable: true } },
			{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. 5e8d2a1c-3f4b-4a6e-9c7d-1b0a2f3e4d5c' },
		],
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
