import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, storeId } from '../helpers';
import { supplierOrderIdField } from './common';
import { failIfPaused } from './paused';

export const routing: Route = {
	operationId: 'retrySupplierOrder',
	method: 'POST',
	path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/retry',
};

const properties: INodeProperties[] = [
	supplierOrderIdField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Accept Cost',
				name: 'acceptCost',
				type: 'boolean',
				default: false,
				description:
					"Whether to accept the supplier's new cost after a price change (costChanged or costAboveLimit); recorded as your decision",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['supplierOrder'], operation: ['retry'] } },
	properties,
);

/** Tries a queued, paused or failed supplier order again; a new pause is an error naming the reason. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const params = {
		storeId: storeId.call(this, itemIndex),
		supplierOrderId: idParameter.call(this, 'supplierOrderId', itemIndex, 'The supplier order ID'),
	};
	const body: IDataObject = options.acceptCost === undefined ? {} : { acceptCost: Boolean(options.acceptCost) };
	const so = (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
	return failIfPaused.call(this, so, itemIndex);
}
