import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { returnIdField, returnOrderField, returnParams } from './common';

export const routing: Route = {
  operationId: 'getSupplierOrderReturn',
  method: 'GET',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/returns/{returnId}',
};

export const description = updateDisplayOptions({ show: { resource: ['return'], operation: ['get'] } }, [returnOrderField, returnIdField]);

/** One return: its items, its refund and its money (the refund, the supplier's credit on its claim, the net). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return (await callRoute.call(this, routing, returnParams.call(this, itemIndex), { itemIndex })) as IDataObject;
}
