import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { supplierOrderIdField, supplierOrderParams } from './common';

export const routing: Route = {
  operationId: 'cancelSupplierOrder',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/cancel',
  idempotent: true,
};

const properties: INodeProperties[] = [supplierOrderIdField];

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['cancel'] } }, properties);

/** Withdraws the order at the supplier where it still allows it; after the supplier shipped, it pauses with supplierAlreadyShipped (answered as is). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = supplierOrderParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
