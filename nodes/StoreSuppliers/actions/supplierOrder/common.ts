import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionId, partKeyOf, idParameter, storeId } from '../helpers';
import { connectionRLC, recordLocator } from '../locator';

export const supplierOrderIdField = recordLocator({
  displayName: 'Supplier Order',
  name: 'supplierOrderId',
  search: 'searchSupplierOrders',
  example: '9a3c1f0e-5b2d-4c7a-8e61-0f4b2d9c7a15',
  description: 'The supplier order (its _id); the list shows orders waiting for review first, with their reason',
});

/** The path parameters of one supplier order's routes (`/api/store-suppliers/{storeId}/orders/{supplierOrderId}/...`). */
export function supplierOrderParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; supplierOrderId: string } {
  return { storeId: storeId.call(this, itemIndex), supplierOrderId: idParameter.call(this, 'supplierOrderId', itemIndex, 'The supplier order ID') };
}

export const orderIdField: INodeProperties = {
  displayName: 'Store Order ID',
  name: 'orderId',
  type: 'string',
  default: '',
  required: true,
  description: 'The ID of the store order whose part to act on',
};

/** The order part is the one a connection serves (its key is supplier:<connection ID>). */
export const partConnectionField: INodeProperties = {
  ...connectionRLC,
  displayName: 'Order Part (Connection)',
  description: 'The supplier connection whose part of the store order to act on; its part key is supplier:<connection ID>',
};

/** The path parameters of one order part's routes (`.../orders/{orderId}/groups/{groupKey}/...`). */
export function partParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; orderId: string; groupKey: string } {
  return {
    storeId: storeId.call(this, itemIndex),
    orderId: idParameter.call(this, 'orderId', itemIndex, 'The store order ID'),
    groupKey: partKeyOf(connectionId.call(this, itemIndex)),
  };
}
