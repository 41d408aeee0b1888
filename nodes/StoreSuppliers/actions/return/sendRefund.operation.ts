import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { returnIdField, returnOrderField, returnParams } from './common';

export const routing: Route = {
  operationId: 'sendSupplierOrderReturnRefund',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/returns/{returnId}/refund',
  idempotent: true,
};

export const description = updateDisplayOptions({ show: { resource: ['return'], operation: ['sendRefund'] } }, [returnOrderField, returnIdField]);

/** Asks the payment provider again for a refund whose answer was not had, under the return's own key: it refunds once. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return (await callRoute.call(this, routing, returnParams.call(this, itemIndex), { itemIndex })) as IDataObject;
}
