import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { idParameter } from '../helpers';
import { RETURN_REASON_WORDS, RETURN_REASONS } from '../../after-shipping-words';
import { optionsOf } from '../options';
import { supplierOrderParams } from '../supplierOrder/common';
import { returnOrderField } from './common';

export const routing: Route = {
  operationId: 'recordSupplierOrderReturn',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/returns',
  idempotent: true,
};

const properties: INodeProperties[] = [
  returnOrderField,
  { displayName: 'Reason', name: 'reason', type: 'options', options: optionsOf(RETURN_REASONS, (v) => RETURN_REASON_WORDS[v]), default: 'damaged' },
  {
    displayName: 'Store Order Item ID',
    name: 'itemId',
    type: 'string',
    default: '',
    required: true,
    description: "The store order's item (of this supplier order's part) the shopper returns",
  },
  { displayName: 'Quantity', name: 'quantity', type: 'number', typeOptions: { minValue: 1 }, default: 1, description: 'How many of the item' },
  optionalFields('options', [
    { displayName: 'Note', name: 'note', type: 'string', typeOptions: { rows: 3 }, default: '', description: "What happened, in the store's words" },
    {
      displayName: 'Claim ID',
      name: 'claimId',
      type: 'string',
      default: '',
      description: 'The claim with the supplier on this supplier order that the return goes with',
    },
    {
      displayName: 'Refund (Minor Units)',
      name: 'refundMinor',
      type: 'number',
      typeOptions: { minValue: 1 },
      default: 1,
      description:
        "Refund the shopper this much, in minor units of the order's currency, through the store's payment provider (the key needs payments.manage too)",
    },
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['return'], operation: ['create'] } }, properties);

/**
 * Records a return of one item of a shipped supplier order, and refunds the shopper when asked: the refund is sent once
 * under the return's own key (`refund.status` sending when its answer was not had: Send Refund asks again).
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
  const body: IDataObject = {
    reason: this.getNodeParameter('reason', itemIndex) as string,
    items: [
      { itemId: idParameter.call(this, 'itemId', itemIndex, 'The store order item ID'), quantity: this.getNodeParameter('quantity', itemIndex) as number },
    ],
    ...(options.note ? { note: String(options.note) } : {}),
    ...(options.claimId ? { claimId: String(options.claimId).trim() } : {}),
    ...(options.refundMinor !== undefined ? { refund: { amountMinor: Number(options.refundMinor) } } : {}),
  };
  return (await callRoute.call(this, routing, supplierOrderParams.call(this, itemIndex), { body, itemIndex })) as IDataObject;
}
