import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, storeId } from '../helpers';
import { supplierOrderIdField } from './common';
import { failIfPaused } from './paused';

export const routing: Route = {
	operationId: 'paySupplierOrder',
	method: 'POST',
	path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/pay',
};

const properties: INodeProperties[] = [supplierOrderIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['supplierOrder'], operation: ['pay'] } },
	properties,
);

/** Pays a supplier order that was created but not paid; one already paid at the supplier is recorded, not paid again. A pause (such as insufficientBalance) is an error naming the reason. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const params = {
		storeId: storeId.call(this, itemIndex),
		supplierOrderId: idParameter.call(this, 'supplierOrderId', itemIndex, 'The supplier order ID'),
	};
	const so = (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
	return failIfPaused.call(this, so, itemIndex);
}
