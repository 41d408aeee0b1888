import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { orderIdField, partConnectionField, partParams } from './common';

export const routing: Route = {
  operationId: 'fulfilOrderPartManually',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{orderId}/groups/{groupKey}/fulfil-manually',
};

const properties: INodeProperties[] = [orderIdField, partConnectionField];

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['fulfilManually'] } }, properties);

/** Takes a part over so the store ships it itself; its supplier order, if any, is cancelled. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  return (await callRoute.call(this, routing, partParams.call(this, itemIndex), { itemIndex })) as IDataObject;
}
