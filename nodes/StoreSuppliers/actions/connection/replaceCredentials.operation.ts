import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { supplierApiKeyField } from '../common.descriptions';
import { connectionParams } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'replaceSupplierCredentials', method: 'PUT', path: '/api/store-suppliers/{storeId}/{id}' };

const properties: INodeProperties[] = [connectionRLC, supplierApiKeyField];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['replaceCredentials'] } }, properties);

/** Replaces the connection's key at the supplier; the new key is verified with the supplier first. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const body = { credentials: { apiKey: this.getNodeParameter('supplierApiKey', itemIndex) as string } };
  const params = connectionParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
