import type { IExecuteFunctions } from 'n8n-workflow';

import { idParameter, storeId } from '../helpers';
import { recordLocator } from '../locator';
import { optionsOf } from '../options';
import { STORE_ORDER_STATUSES } from '../../vocabulary';

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

/** A store order's statuses, from the vocabulary. */
export const ORDER_STATUS_OPTIONS = optionsOf(STORE_ORDER_STATUSES);
