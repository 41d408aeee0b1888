import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionParams } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'setSupplierConnectionEnabled', method: 'PUT', path: '/api/store-suppliers/{storeId}/{id}/enabled' };

const properties: INodeProperties[] = [
  connectionRLC,
  {
    displayName: 'Enabled',
    name: 'enabled',
    type: 'boolean',
    default: true,
    description: "Whether to switch the connection on (needs the owner's plan to include dropshipping) or off (always allowed)",
  },
];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['setEnabled'] } }, properties);

/** Switches the connection on or off. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const body = { enabled: this.getNodeParameter('enabled', itemIndex) as boolean };
  const params = connectionParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
