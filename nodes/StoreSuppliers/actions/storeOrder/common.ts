import type { IExecuteFunctions } from 'n8n-workflow';

import { idParameter, storeId } from '../helpers';
import { recordLocator } from '../locator';

/** A store order: picked from the store's newest orders (those needing attention first), by ID, or by its console address. */
export const storeOrderRLC = recordLocator({
	displayName: 'Store Order',
	name: 'storeOrderId',
	search: 'searchStoreOrders',
	example: '0c2e7c1a-7f3b-4c55-9a57-52b0d4f4b7a1',
	uuidOf: 'store order',
	consolePage: 'orders',
});

/** The path parameters of one store order's routes (`/api/store-orders/{storeId}/{orderId}/...`). */
export function storeOrderParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; orderId: string } {
	return { storeId: storeId.call(this, itemIndex), orderId: idParameter.call(this, 'storeOrderId', itemIndex, 'The store order') };
}

export const ORDER_STATUS_OPTIONS = [
	{ name: 'Cancelled', value: 'cancelled' },
	{ name: 'Confirmed', value: 'confirmed' },
	{ name: 'Delivered', value: 'delivered' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'Processing', value: 'processing' },
	{ name: 'Shipped', value: 'shipped' },
];
