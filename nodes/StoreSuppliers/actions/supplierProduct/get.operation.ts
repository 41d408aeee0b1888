import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionRLC } from '../common.descriptions';
import { connectionId, idParameter, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'getSupplierProduct',
	method: 'GET',
	path: '/api/store-suppliers/{storeId}/{id}/products/{supplierProductId}',
};

const properties: INodeProperties[] = [
	connectionRLC,
	{
		displayName: 'Supplier Product ID',
		name: 'supplierProductId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. SBX-P00017',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['supplierProduct'], operation: ['get'] } },
	properties,
);

/** One supplier product with its variants, costs and stock. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const params = {
		storeId: storeId.call(this, itemIndex),
		id: connectionId.call(this, itemIndex),
		supplierProductId: idParameter.call(this, 'supplierProductId', itemIndex, 'The supplier product ID'),
	};
	return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
