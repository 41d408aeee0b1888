import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { supplierOrderIdField, supplierOrderParams } from './common';
import { sendSupplierOrder, switchOptions } from './paused';

export const routing: Route = {
  operationId: 'retrySupplierOrder',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/retry',
  idempotent: true,
};

const acceptCost = switchOptions(
  'acceptCost',
  'Accept Cost',
  "Whether to accept the supplier's new cost after a price change (costChanged or costAboveLimit); recorded as your decision",
);

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['retry'] } }, [supplierOrderIdField, acceptCost]);

/** Tries a queued, paused or failed supplier order again; a new pause is an error naming the reason. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return await sendSupplierOrder.call(this, itemIndex, routing, supplierOrderParams.call(this, itemIndex), 'acceptCost');
}
