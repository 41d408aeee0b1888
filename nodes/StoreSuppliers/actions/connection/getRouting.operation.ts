import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'getSupplierRouting', method: 'GET', path: '/api/store-suppliers/{storeId}/routing' };

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['getRouting'] } }, properties);

/** The store's routing rule (primary until set) and when it was set. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { itemIndex })) as IDataObject;
}
