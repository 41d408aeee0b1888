import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionId, groupKeyOf, idParameter, storeId } from '../helpers';
import { orderIdField, partConnectionField } from './common';

export const routing: Route = {
	operationId: 'fulfilOrderPartManually',
	method: 'POST',
	path: '/api/store-suppliers/{storeId}/orders/{orderId}/groups/{groupKey}/fulfil-manually',
};

const properties: INodeProperties[] = [orderIdField, partConnectionField];

export const description = updateDisplayOptions(
	{ show: { resource: ['supplierOrder'], operation: ['fulfilManually'] } },
	properties,
);

/** Takes a part over so the store ships it itself; its supplier order, if any, is cancelled. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const params = {
		storeId: storeId.call(this, itemIndex),
		orderId: idParameter.call(this, 'orderId', itemIndex, 'The store order ID'),
		groupKey: groupKeyOf(connectionId.call(this, itemIndex)),
	};
	return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
