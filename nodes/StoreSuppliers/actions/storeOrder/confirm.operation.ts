import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { storeOrderParams, storeOrderRLC } from './common';

export const routing: Route = { operationId: 'confirmStoreOrder', method: 'POST', path: '/api/store-orders/{storeId}/{orderId}/confirm', idempotent: true };

export const description = updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['confirm'] } }, [storeOrderRLC]);

/** Confirms the order; supplier parts under an automatic level are sent at once. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = storeOrderParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
