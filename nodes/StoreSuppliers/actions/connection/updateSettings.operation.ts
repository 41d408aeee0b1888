import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionParams, jsonParameter } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'changeSupplierSettings', method: 'PUT', path: '/api/store-suppliers/{storeId}/{id}/settings' };

const properties: INodeProperties[] = [
  connectionRLC,
  {
    displayName: 'Settings (JSON)',
    name: 'settings',
    type: 'json',
    default: '{}',
    required: true,
    description: 'The supplier\'s own settings, as its settings schema in the catalogue describes, e.g. {"shippingSpeed": "express"}',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['updateSettings'] } }, properties);

/** Replaces the supplier's own settings of the connection (validated against the supplier's schema). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const body = { settings: jsonParameter.call(this, 'settings', itemIndex, 'Settings') };
  const params = connectionParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
