import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { supplierOrderIdField, supplierOrderParams } from './common';
import { sendSupplierOrder } from './paused';

export const routing: Route = {
  operationId: 'paySupplierOrder',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/pay',
  idempotent: true,
};

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['pay'] } }, [supplierOrderIdField]);

/**
 * Pays a supplier order that was created but not paid; one already paid at the supplier is recorded, not
 * paid again. A pause (such as insufficientBalance) is an error naming the reason.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return await sendSupplierOrder.call(this, itemIndex, routing, supplierOrderParams.call(this, itemIndex));
}
