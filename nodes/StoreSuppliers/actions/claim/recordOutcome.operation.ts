import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { claimIdField, claimOrderField, claimParams } from './common';

export const routing: Route = {
  operationId: 'recordSupplierClaimOutcome',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/claims/{claimId}/outcome',
  idempotent: true,
};

const properties: INodeProperties[] = [
  claimOrderField,
  claimIdField,
  {
    displayName: 'Outcome',
    name: 'outcome',
    type: 'options',
    options: [
      { name: 'Refunded', value: 'refunded' },
      { name: 'Rejected', value: 'rejected' },
      { name: 'Reshipped', value: 'reshipped', description: 'The supplier reships under its own order' },
    ],
    default: 'refunded',
  },
  {
    displayName: 'Amount (Minor Units)',
    name: 'amountMinor',
    type: 'number',
    typeOptions: { minValue: 0 },
    default: 0,
    displayOptions: { show: { outcome: ['refunded'] } },
    description: "What the supplier refunded, in its currency's minor units (cents)",
  },
  {
    displayName: 'Currency',
    name: 'currency',
    type: 'string',
    default: 'USD',
    displayOptions: { show: { outcome: ['refunded'] } },
    description: 'ISO 4217 code of the amount',
  },
  { displayName: "Supplier's Words", name: 'message', type: 'string', default: '', required: true, displayOptions: { show: { outcome: ['rejected'] } } },
];

export const description = updateDisplayOptions({ show: { resource: ['claim'], operation: ['recordOutcome'] } }, properties);

/** A claim a person sent (a supplier without a claims API): what the supplier decided. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const outcome = this.getNodeParameter('outcome', itemIndex) as string;
  const body: IDataObject = { outcome };
  if (outcome === 'refunded')
    body.amount = {
      amountMinor: this.getNodeParameter('amountMinor', itemIndex) as number,
      currency: String(this.getNodeParameter('currency', itemIndex)).trim().toUpperCase(),
    };
  if (outcome === 'rejected') body.message = this.getNodeParameter('message', itemIndex) as string;
  return (await callRoute.call(this, routing, claimParams.call(this, itemIndex), { body, itemIndex })) as IDataObject;
}
