import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { orderIdField, partConnectionField, partParams } from './common';
import { sendSupplierOrder, switchOptions } from './paused';

export const routing: Route = {
  operationId: 'submitOrderPart',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{orderId}/groups/{groupKey}/submit',
  idempotent: true,
};

const payNow = switchOptions(
  'payNow',
  'Pay Now',
  "Whether to also pay the order from the balance as soon as it is created, skipping the check that the shopper paid (recorded in the order's history)",
);

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['submit'] } }, [orderIdField, partConnectionField, payNow]);

/**
 * Sends one part of a store order to its supplier now (called twice, still one supplier order).
 * An order that stops for review is an error naming the reason.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return await sendSupplierOrder.call(this, itemIndex, routing, partParams.call(this, itemIndex), 'payNow');
}
