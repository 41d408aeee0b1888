import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as sendRefund from './sendRefund.operation';

export const operations = { create, get, getAll, sendRefund } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['return'] } },
    options: [
      {
        name: 'Create',
        value: 'create',
        description: "Record a return of a shipped supplier order's items, refunding the shopper if asked",
        action: 'Create a return',
      },
      { name: 'Get', value: 'get', description: 'Get a return with its refund and money', action: 'Get a return' },
      { name: 'Get Many', value: 'getAll', description: "Get a supplier order's returns", action: 'Get many returns' },
      {
        name: 'Send Refund',
        value: 'sendRefund',
        description: "Ask the payment provider again for a return's refund whose answer was not had",
        action: 'Send a return refund',
      },
    ],
    default: 'create',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['return'] } } },
  ...create.description,
  ...get.description,
  ...getAll.description,
  ...sendRefund.description,
];
