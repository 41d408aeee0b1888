import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionParams } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'getSupplierBalance', method: 'GET', path: '/api/store-suppliers/{storeId}/{id}/balance' };

const properties: INodeProperties[] = [connectionRLC];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['getBalance'] } }, properties);

/** The account balance at the supplier, where the supplier reports one. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = connectionParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
