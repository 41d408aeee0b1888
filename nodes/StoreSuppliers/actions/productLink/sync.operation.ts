import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { linkIdField, linkParams } from './linkId';

export const routing: Route = { operationId: 'syncProductLink', method: 'POST', path: '/api/store-suppliers/{storeId}/links/{linkId}/sync' };

const properties: INodeProperties[] = [linkIdField];

export const description = updateDisplayOptions({ show: { resource: ['productLink'], operation: ['sync'] } }, properties);

/** Syncs one link now, within its sync switches; answers the link afterwards. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = linkParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
