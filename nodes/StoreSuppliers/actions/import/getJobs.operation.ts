import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRouteAllItems, type Route } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listLimit, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'listImportJobs',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}/imports',
};

const properties: INodeProperties[] = [...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['import'], operation: ['getJobs'] } },
	properties,
);

/** The store's import jobs, newest first, one item per job with its progress. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await callRouteAllItems.call(this, routing, { storeId: storeId.call(this, itemIndex) }, {
		limit: listLimit.call(this, itemIndex),
		itemIndex,
	});
}
