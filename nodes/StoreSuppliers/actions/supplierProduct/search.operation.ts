import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { getMany, getManyFields } from '../getMany';
import { connectionParams } from '../helpers';
import { connectionRLC } from '../locator';

export const routing: Route = { operationId: 'searchSupplierProducts', method: 'GET', path: '/api/store-suppliers/{storeId}/{id}/products' };

const properties: INodeProperties[] = [
  connectionRLC,
  {
    displayName: 'Search Text',
    name: 'query',
    type: 'string',
    default: '',
    placeholder: 'e.g. lamp',
    description: "Words to look for in the supplier's catalogue; empty to browse it all",
  },
  ...getManyFields(),
];

export const description = updateDisplayOptions({ show: { resource: ['supplierProduct'], operation: ['search'] } }, properties);

/** Browses or searches the supplier's catalogue, one item per supplier product. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const query = String(this.getNodeParameter('query', itemIndex, '')).trim();
  return await getMany.call(this, itemIndex, routing, connectionParams.call(this, itemIndex), { qs: { query: query || undefined } });
}
