import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { compact } from '../helpers';
import { storeOrderParams, storeOrderRLC } from './common';

export const routing: Route = { operationId: 'markStoreOrderPaid', method: 'POST', path: '/api/store-orders/{storeId}/{orderId}/mark-paid', idempotent: true };

const properties: INodeProperties[] = [
  storeOrderRLC,
  optionalFields('additionalFields', [
    { displayName: 'Amount (Minor Units)', name: 'amountMinor', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'E.g. 1999 for 19.99.' },
    { displayName: 'Reference', name: 'reference', type: 'string', default: '', description: 'A receipt or bank transfer reference' },
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['markPaid'] } }, properties);

/** Marks the order paid by hand (cash, bank transfer): confirms it; online payments come from the payment provider itself. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = storeOrderParams.call(this, itemIndex);
  const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
  const body = compact({
    amountMinor: extra.amountMinor === undefined ? undefined : Number(extra.amountMinor),
    reference: extra.reference ? String(extra.reference) : undefined,
  });
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
