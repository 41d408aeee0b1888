import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { claimIdField, claimOrderField, claimParams } from './common';

export const routing: Route = {
  operationId: 'getSupplierClaim',
  method: 'GET',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/claims/{claimId}',
};

export const description = updateDisplayOptions({ show: { resource: ['claim'], operation: ['get'] } }, [claimOrderField, claimIdField]);

/** One claim: its status, the supplier's id and status, its outcome once it has one. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return (await callRoute.call(this, routing, claimParams.call(this, itemIndex), { itemIndex })) as IDataObject;
}
