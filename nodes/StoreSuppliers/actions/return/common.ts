import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idParameter } from '../helpers';
import { supplierOrderIdField, supplierOrderParams } from '../supplierOrder/common';

/** The supplier order a return is of (the supplier order locator, as the Supplier Order resource shows it). */
export const returnOrderField: INodeProperties = {
  ...supplierOrderIdField,
  description: 'The supplier order whose items are returned (its _id): shipped, delivered, or paused because the supplier shipped before a cancel',
};

export const returnIdField: INodeProperties = {
  displayName: 'Return ID',
  name: 'returnId',
  type: 'string',
  default: '',
  required: true,
  description: 'The return (its _id)',
};

/** The path parameters of one return's routes (`.../orders/{supplierOrderId}/returns/{returnId}`). */
export function returnParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; supplierOrderId: string; returnId: string } {
  return { ...supplierOrderParams.call(this, itemIndex), returnId: idParameter.call(this, 'returnId', itemIndex, 'The return ID') };
}
