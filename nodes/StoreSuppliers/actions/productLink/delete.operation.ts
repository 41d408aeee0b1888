import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { linkIdField, linkParams } from './linkId';

export const routing: Route = { operationId: 'deleteProductLink', method: 'DELETE', path: '/api/store-suppliers/{storeId}/links/{linkId}' };

const properties: INodeProperties[] = [linkIdField];

export const description = updateDisplayOptions({ show: { resource: ['productLink'], operation: ['delete'] } }, properties);

/** Unlinks; the product stays as the store's own. The service answers nothing (204). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = linkParams.call(this, itemIndex);
  await callRoute.call(this, routing, params, { itemIndex });
  return { id: params.linkId, deleted: true };
}
