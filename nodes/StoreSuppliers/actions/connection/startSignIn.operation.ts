import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { modeOption, supplierKeyOption } from '../common.descriptions';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'startSupplierSignIn', method: 'POST', path: '/api/store-suppliers/{storeId}/oauth/start' };

const properties: INodeProperties[] = [supplierKeyOption, modeOption];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['startSignIn'] } }, properties);

/**
 * Answers the sign-in's address at the service, for a store member with suppliers.manage to open in their browser
 * (signed in to the console); the supplier's callback in that browser then creates the connection.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const body = {
    supplierKey: this.getNodeParameter('supplierKey', itemIndex) as string,
    mode: this.getNodeParameter('mode', itemIndex) as string,
  };
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { body, itemIndex })) as IDataObject;
}
