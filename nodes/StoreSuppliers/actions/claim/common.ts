import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idParameter } from '../helpers';
import { supplierOrderIdField, supplierOrderParams } from '../supplierOrder/common';

/** The supplier order a claim is about (the supplier order locator, as the Supplier Order resource shows it). */
export const claimOrderField: INodeProperties = {
  ...supplierOrderIdField,
  description: 'The supplier order the claim is about (its _id): shipped or delivered',
};

export const claimIdField: INodeProperties = {
  displayName: 'Claim ID',
  name: 'claimId',
  type: 'string',
  default: '',
  required: true,
  description: 'The claim (its _id, also the key it was sent to the supplier under)',
};

/** The path parameters of one claim's routes (`.../orders/{supplierOrderId}/claims/{claimId}`). */
export function claimParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; supplierOrderId: string; claimId: string } {
  return { ...supplierOrderParams.call(this, itemIndex), claimId: idParameter.call(this, 'claimId', itemIndex, 'The claim ID') };
}
