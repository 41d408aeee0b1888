import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, storeId } from '../helpers';
import { linkIdField } from './linkId';

export const routing: Route = {
	operationId: 'deleteProductLink',
	method: 'DELETE',
	path: '/api/store-suppliers/{storeId}/links/{linkId}',
};

const properties: INodeProperties[] = [linkIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['productLink'], operation: ['delete'] } },
	properties,
);

/** Unlinks; the product stays as the store's own. The service answers nothing (204). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const linkId = idParameter.call(this, 'linkId', itemIndex, 'The link ID');
	await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex), linkId }, { itemIndex });
	return { id: linkId, deleted: true };
}
