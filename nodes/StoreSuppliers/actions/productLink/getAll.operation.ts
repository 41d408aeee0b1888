import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { filtersOf, getMany, getManyFields } from '../getMany';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'listProductLinks', method: 'GET', path: '/api/store-suppliers/{storeId}/links' };

const filters = getManyFields([
  {
    displayName: 'Connection Name or ID',
    name: 'connectionId',
    type: 'options',
    typeOptions: { loadOptionsMethod: 'getConnections', loadOptionsDependsOn: ['store.value'] },
    default: '',
    description:
      'Only links to this connection\'s products. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
  },
  {
    displayName: 'Store Product ID',
    name: 'productId',
    type: 'string',
    default: '',
    description: 'Only the link of this store product',
  },
]);

export const description = updateDisplayOptions({ show: { resource: ['productLink'], operation: ['getAll'] } }, filters);

/** The store's product links, newest first, one item per link. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const { connectionId, productId } = filtersOf.call(this, itemIndex);
  return await getMany.call(this, itemIndex, routing, { storeId: storeId.call(this, itemIndex) }, { qs: { connectionId, productId } });
}
