import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { supplierOrderParams } from '../supplierOrder/common';
import { claimOrderField } from './common';

export const routing: Route = { operationId: 'listSupplierClaims', method: 'GET', path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/claims' };

export const description = updateDisplayOptions({ show: { resource: ['claim'], operation: ['getAll'] } }, [claimOrderField]);

/** A supplier order's claims, oldest first: one item each. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const answer = (await callRoute.call(this, routing, supplierOrderParams.call(this, itemIndex), { itemIndex })) as { items: IDataObject[] };
  return answer.items;
}
