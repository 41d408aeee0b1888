import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { jsonParameter, storeId } from '../helpers';

export const routing: Route = { operationId: 'createStoreOrder', method: 'POST', path: '/api/store-orders/{storeId}', idempotent: true };

const properties: INodeProperties[] = [
  {
    displayName: 'Items',
    name: 'items',
    type: 'fixedCollection',
    typeOptions: { multipleValues: true },
    default: {},
    required: true,
    placeholder: 'Add Item',
    options: [
      {
        displayName: 'Item',
        name: 'item',
        values: [
          { displayName: 'Store Product ID', name: 'productId', type: 'string', default: '', required: true },
          { displayName: 'Store Variant ID', name: 'variantId', type: 'string', default: '', required: true },
          { displayName: 'Quantity', name: 'quantity', type: 'number', typeOptions: { minValue: 1 }, default: 1 },
        ],
      },
    ],
  },
  {
    displayName: 'Destination (JSON)',
    name: 'destination',
    type: 'json',
    default: '{\n  "name": "",\n  "line1": "",\n  "city": "",\n  "postalCode": "",\n  "country": "US"\n}',
    required: true,
    description: 'Where the order goes: name, line1, line2, city, region, postalCode, country (two letters), phone, email',
  },
  {
    displayName: 'Payment Method',
    name: 'paymentMethod',
    type: 'options',
    options: [
      { name: 'Cash on Delivery', value: 'cashOnDelivery' },
      { name: 'Manual', value: 'manual', description: 'Paid outside the store (e.g. bank transfer); staff confirm the order' },
      { name: 'Online', value: 'online', description: "A payment provider: its signed notifications report the shopper's payment" },
    ],
    default: 'manual',
  },
  {
    displayName: 'Contract Model',
    name: 'contractModel',
    type: 'options',
    options: [
      { name: 'Promise to Sell', value: 'promiseToSell', description: 'Sending starts once the payment is authorised' },
      { name: 'Standard', value: 'standard' },
    ],
    default: 'standard',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['storeOrder'], operation: ['create'] } }, properties);

/** A new store order; its items are split into parts (the store's own, one per supplier connection). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const collection = this.getNodeParameter('items', itemIndex, {}) as { item?: IDataObject[] };
  const items = (collection.item ?? []).map((i) => ({
    productId: String(i.productId ?? '').trim(),
    variantId: String(i.variantId ?? '').trim(),
    quantity: Number(i.quantity ?? 1),
  }));
  if (!items.length) throw new NodeOperationError(this.getNode(), 'Add at least one item', { itemIndex });
  const body = {
    items,
    destination: jsonParameter.call(this, 'destination', itemIndex, 'Destination'),
    paymentMethod: this.getNodeParameter('paymentMethod', itemIndex) as string,
    contractModel: this.getNodeParameter('contractModel', itemIndex) as string,
  };
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { body, itemIndex })) as IDataObject;
}
