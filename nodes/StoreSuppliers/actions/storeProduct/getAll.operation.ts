import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { filtersOf, getMany, getManyFields } from '../getMany';
import { simplifyField, storeId } from '../helpers';

export const routing: Route = { operationId: 'listStoreProducts', method: 'GET', path: '/api/store-products/{storeId}' };

const fields = getManyFields([
  {
    displayName: 'Status',
    name: 'status',
    type: 'options',
    options: [
      { name: 'Any', value: '' },
      { name: 'Active', value: 'active' },
      { name: 'Archived', value: 'archived' },
      { name: 'Draft', value: 'draft' },
    ],
    default: '',
  },
]);

export const description = [
  ...updateDisplayOptions({ show: { resource: ['storeProduct'], operation: ['getAll'] } }, fields),
  simplifyField('storeProduct', 'getAll', true),
];

/** Store products, newest first. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const { status } = filtersOf.call(this, itemIndex);
  return await getMany.call(this, itemIndex, routing, { storeId: storeId.call(this, itemIndex) }, { qs: { status }, simplify: 'storeProduct' });
}
