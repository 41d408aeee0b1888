import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { claimIdField, claimOrderField, claimParams } from './common';

export const routing: Route = {
  operationId: 'cancelSupplierClaim',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/claims/{claimId}/cancel',
};

export const description = updateDisplayOptions({ show: { resource: ['claim'], operation: ['cancel'] } }, [claimOrderField, claimIdField]);

/** Withdraws a claim: a person's at once, one sent where the supplier allows it. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return (await callRoute.call(this, routing, claimParams.call(this, itemIndex), { itemIndex })) as IDataObject;
}
