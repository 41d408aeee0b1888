import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as get from './get.operation';
import * as resolveUrl from './resolveUrl.operation';
import * as search from './search.operation';

export const operations = { get, resolveUrl, search } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['supplierProduct'] } },
    options: [
      {
        name: 'Get',
        value: 'get',
        description: 'Get a supplier product with variants, costs and stock',
        action: 'Get a supplier product',
      },
      {
        name: 'Resolve URL',
        value: 'resolveUrl',
        description: "Turn a pasted product link into the supplier's product ID",
        action: 'Resolve a product URL',
      },
      {
        name: 'Search',
        value: 'search',
        description: "Browse or search the supplier's catalogue",
        action: 'Search supplier products',
      },
    ],
    default: 'search',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['supplierProduct'] } } },
  ...search.description,
  ...get.description,
  ...resolveUrl.description,
];
