import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { modeOption, optionalFields, supplierApiKeyField, supplierKeyOption } from '../common.descriptions';
import { jsonObject, storeId } from '../helpers';

export const routing: Route = { operationId: 'connectSupplier', method: 'POST', path: '/api/store-suppliers/{storeId}', idempotent: true };

const properties: INodeProperties[] = [
  supplierKeyOption,
  modeOption,
  supplierApiKeyField,
  optionalFields('additionalFields', [
    {
      displayName: 'Supplier Store ID',
      name: 'supplierStoreId',
      type: 'string',
      default: '',
      description: "The store at the supplier, for suppliers whose key covers several stores (Printful's account-level tokens); sent as storeId with the key",
    },
    {
      displayName: 'Settings (JSON)',
      name: 'settings',
      type: 'json',
      default: '{}',
      description: "The supplier's own settings, as its settings schema in the catalogue describes",
    },
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['connect'] } }, properties);

/** Connects a supplier with the merchant's key at the supplier; the service verifies the key first. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
  const body: IDataObject = {
    supplierKey: this.getNodeParameter('supplierKey', itemIndex) as string,
    mode: this.getNodeParameter('mode', itemIndex) as string,
    credentials: { apiKey: this.getNodeParameter('supplierApiKey', itemIndex) as string },
  };
  if (typeof additional.supplierStoreId === 'string' && additional.supplierStoreId.trim())
    (body.credentials as IDataObject).storeId = additional.supplierStoreId.trim();
  if (additional.settings !== undefined) {
    const settings = jsonObject.call(this, additional.settings, itemIndex, 'Settings');
    if (Object.keys(settings).length) body.settings = settings;
  }
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { body, itemIndex })) as IDataObject;
}
