import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { supplierOrderParams } from '../supplierOrder/common';
import { returnOrderField } from './common';

export const routing: Route = {
  operationId: 'listSupplierOrderReturns',
  method: 'GET',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/returns',
};

export const description = updateDisplayOptions({ show: { resource: ['return'], operation: ['getAll'] } }, [returnOrderField]);

/** A supplier order's returns, oldest first: one item each. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const answer = (await callRoute.call(this, routing, supplierOrderParams.call(this, itemIndex), { itemIndex })) as { items: IDataObject[] };
  return answer.items;
}
