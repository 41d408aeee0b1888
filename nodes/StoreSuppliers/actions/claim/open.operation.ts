import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { commaList, idParameter } from '../helpers';
import { CLAIM_EXPECTATIONS, CLAIM_REASON_WORDS, CLAIM_REASONS } from '../../after-shipping-words';
import { optionsOf } from '../options';
import { supplierOrderParams } from '../supplierOrder/common';
import { claimOrderField } from './common';

export const routing: Route = {
  operationId: 'openSupplierClaim',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/claims',
  idempotent: true,
};

const properties: INodeProperties[] = [
  claimOrderField,
  { displayName: 'Reason', name: 'reason', type: 'options', options: optionsOf(CLAIM_REASONS, (v) => CLAIM_REASON_WORDS[v]), default: 'notReceived' },
  {
    displayName: 'Expectation',
    name: 'expectation',
    type: 'options',
    options: optionsOf(CLAIM_EXPECTATIONS),
    default: 'reship',
    description: 'What the store asks the supplier for',
  },
  {
    displayName: 'Store Order Item ID',
    name: 'itemId',
    type: 'string',
    default: '',
    required: true,
    description: "The store order's item (of this supplier order's part) the claim is about",
  },
  { displayName: 'Quantity', name: 'quantity', type: 'number', typeOptions: { minValue: 1 }, default: 1, description: 'How many of the item' },
  optionalFields('options', [
    { displayName: 'Message', name: 'message', type: 'string', typeOptions: { rows: 3 }, default: '', description: 'To the supplier (at most 500 characters)' },
    { displayName: 'Evidence', name: 'evidence', type: 'string', default: '', description: 'Https addresses of photos or videos, comma-separated' },
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['claim'], operation: ['open'] } }, properties);

/**
 * Opens a claim with the supplier for one item of a shipped supplier order. Sent once by the service where the
 * supplier has a claims API, else recorded for a person to send (with its deadline and evidence pack).
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
  const evidence = commaList(options.evidence);
  const body: IDataObject = {
    reason: this.getNodeParameter('reason', itemIndex) as string,
    expectation: this.getNodeParameter('expectation', itemIndex) as string,
    items: [
      { itemId: idParameter.call(this, 'itemId', itemIndex, 'The store order item ID'), quantity: this.getNodeParameter('quantity', itemIndex) as number },
    ],
    ...(options.message ? { message: String(options.message) } : {}),
    ...(evidence.length ? { evidence } : {}),
  };
  return (await callRoute.call(this, routing, supplierOrderParams.call(this, itemIndex), { body, itemIndex })) as IDataObject;
}
