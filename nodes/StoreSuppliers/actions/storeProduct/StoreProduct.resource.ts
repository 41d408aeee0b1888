import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { get, getAll } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['storeProduct'] } },
    options: [
      { name: 'Get', value: 'get', description: 'Get a store product with its variants', action: 'Get a store product' },
      { name: 'Get Many', value: 'getAll', description: 'Get many store products, newest first', action: 'Get many store products' },
    ],
    default: 'getAll',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['storeProduct'] } } },
  ...get.description,
  ...getAll.description,
];
