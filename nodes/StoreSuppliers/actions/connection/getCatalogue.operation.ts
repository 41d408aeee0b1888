import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'listSupplierCatalogue', method: 'GET', path: '/api/store-suppliers/{storeId}/catalogue' };

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['getCatalogue'] } }, properties);

/** One item per supplier the store can connect, with what each can do. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { itemIndex })) as IDataObject[];
}
