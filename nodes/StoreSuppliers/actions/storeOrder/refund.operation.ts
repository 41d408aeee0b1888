import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { compact } from '../helpers';
import { storeOrderParams, storeOrderRLC } from './common';

export const routing: Route = { operationId: 'refundStoreOrder', method: 'POST', path: '/api/store-orders/{storeId}/{orderId}/refunds', idempotent: true };

const properties: INodeProperties[] = [
  storeOrderRLC,
  {
    displayName: 'Amount (Minor Units)',
    name: 'amountMinor',
    type: 'number',
    required: true,
    typeOptions: { minValue: 1 },
    default: 1,
    description: "How much to refund, in minor units of the order's currency (e.g. 1999 for 19.99); the order's total refunds it whole",
  },
  optionalFields('additionalFields', [
    { displayName: 'Reason', name: 'reason', type: 'string', default: '', description: "Why (kept in the order's payment history)" },
    {
      displayName: 'Currency',
      name: 'currency',
      type: 'string',
      default: '',
      placeholder: 'USD',
      description: "The order's currency, to make sure of it (another is refused)",
    },
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['refund'] } }, properties);

/**
 * Refunds the shopper, the whole order or part of it, through the store's payment provider: the answer says the
 * provider took it; the order's payments (`providerPayments`, `amountRefundedMinor`) move on the provider's event.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = storeOrderParams.call(this, itemIndex);
  const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
  const body = compact({
    amountMinor: Number(this.getNodeParameter('amountMinor', itemIndex)),
    reason: extra.reason ? String(extra.reason) : undefined,
    currency: extra.currency ? String(extra.currency).toUpperCase() : undefined,
  });
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
