import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { filtersOf, getMany, getManyFields } from '../getMany';
import { simplifyField, storeId } from '../helpers';
import { ORDER_STATUS_OPTIONS } from './common';

export const routing: Route = { operationId: 'listStoreOrders', method: 'GET', path: '/api/store-orders/{storeId}' };

const fields = getManyFields([
  {
    displayName: 'Customer',
    name: 'customer',
    type: 'string',
    default: '',
    placeholder: 'e.g. lovelace',
    description:
      "Only the orders whose delivery name or e-mail contains this text (letter case aside). It searches customer data, so the key's owner needs the customers.view permission.",
  },
  {
    displayName: 'Needs Attention',
    name: 'needsAttention',
    type: 'options',
    options: [
      { name: 'Any', value: '' },
      { name: 'Only Orders Needing Attention', value: 'true', description: 'A part waits for review or failed' },
      { name: 'Only Orders Not Needing Attention', value: 'false' },
    ],
    default: '',
  },
  {
    displayName: 'Status',
    name: 'status',
    type: 'options',
    options: [{ name: 'Any', value: '' }, ...ORDER_STATUS_OPTIONS],
    default: '',
  },
]);

export const description = [
  ...updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['getAll'] } }, fields),
  simplifyField('storeOrder', 'getAll', true),
];

/** Store orders, newest first, each with a summary of its parts. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const { customer, needsAttention, status } = filtersOf.call(this, itemIndex);
  const qs = {
    customer: typeof customer === 'string' ? customer.trim() : undefined,
    needsAttention: needsAttention ? needsAttention === 'true' : undefined,
    status,
  };
  return await getMany.call(this, itemIndex, routing, { storeId: storeId.call(this, itemIndex) }, { qs, simplify: 'storeOrder' });
}
