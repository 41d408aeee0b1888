import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionId, groupKeyOf, idParameter, storeId } from '../helpers';
import { orderIdField, partConnectionField } from './common';
import { failIfPaused } from './paused';

export const routing: Route = {
	operationId: 'submitOrderPart',
	method: 'POST',
	path: '/api/store-suppliers/{storeId}/orders/{orderId}/groups/{groupKey}/submit',
};

const properties: INodeProperties[] = [
	orderIdField,
	partConnectionField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Pay Now',
				name: 'payNow',
				type: 'boolean',
				default: false,
				description:
					"Whether to also pay the order from the balance as soon as it is created, skipping the check that the shopper paid (recorded in the order's history)",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['supplierOrder'], operation: ['submit'] } },
	properties,
);

/**
 * Sends one part of a store order to its supplier now (called twice, still one supplier order).
 * An order that stops for review is an error naming the reason.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const params = {
		storeId: storeId.call(this, itemIndex),
		orderId: idParameter.call(this, 'orderId', itemIndex, 'The store order ID'),
		groupKey: groupKeyOf(connectionId.call(this, itemIndex)),
	};
	const body: IDataObject = options.payNow === undefined ? {} : { payNow: Boolean(options.payNow) };
	const so = (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
	return failIfPaused.call(this, so, itemIndex);
}
