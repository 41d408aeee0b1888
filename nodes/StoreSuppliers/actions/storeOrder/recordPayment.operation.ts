import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { compact, idParameter, storeId } from '../helpers';
import { storeOrderRLC } from './common';

export const routing: Route = { operationId: 'recordStorePayment', method: 'POST', path: '/api/store-orders/{storeId}/{orderId}/payments' };

const properties: INodeProperties[] = [
	storeOrderRLC,
	{
		displayName: 'Event',
		name: 'kind',
		type: 'options',
		options: [
			{ name: 'Authorised', value: 'authorised', description: 'Under promise-to-sell, this starts sending' },
			{ name: 'Failed', value: 'failed' },
			{ name: 'Paid', value: 'paid', description: 'Settled; confirms a pending online order' },
			{ name: 'Refunded', value: 'refunded' },
		],
		default: 'paid',
		description: "The payment provider's event",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Amount (Minor Units)', name: 'amountMinor', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'E.g. 1999 for 19.99.' },
			{ displayName: 'Reference', name: 'reference', type: 'string', default: '', description: "The provider's reference for the payment" },
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['recordPayment'] } }, properties);

/** Records a payment provider's event for the order. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const params = { storeId: storeId.call(this, itemIndex), orderId: idParameter.call(this, 'storeOrderId', itemIndex, 'The store order') };
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = compact({
		kind: this.getNodeParameter('kind', itemIndex) as string,
		amountMinor: extra.amountMinor === undefined ? undefined : Number(extra.amountMinor),
		reference: extra.reference ? String(extra.reference) : undefined,
	});
	return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
