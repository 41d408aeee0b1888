import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listLimit, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'listSupplierConnections',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}',
};

const properties: INodeProperties[] = [...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['connection'], operation: ['getAll'] } },
	properties,
);

/** The store's connections with health and automation (the service answers them all at once). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const rows = (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { itemIndex })) as IDataObject[];
	const limit = listLimit.call(this, itemIndex);
	return limit === undefined ? rows : rows.slice(0, limit);
}
