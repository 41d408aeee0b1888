import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as confirm from './confirm.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as markPaid from './markPaid.operation';
import * as refund from './refund.operation';

export const operations = { confirm, create, get, getAll, markPaid, refund } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['storeOrder'] } },
    options: [
      { name: 'Confirm', value: 'confirm', description: 'Confirm a store order; parts under an automatic level are sent now', action: 'Confirm a store order' },
      { name: 'Create', value: 'create', description: 'Create a store order from store products', action: 'Create a store order' },
      { name: 'Get', value: 'get', description: 'Get a store order with its parts and supplier orders', action: 'Get a store order' },
      { name: 'Get Many', value: 'getAll', description: 'Get many store orders, newest first', action: 'Get many store orders' },
      {
        name: 'Mark as Paid',
        value: 'markPaid',
        description: 'Record that the shopper paid by hand (cash, bank transfer); confirms the order',
        action: 'Mark an order as paid',
      },
      {
        name: 'Refund',
        value: 'refund',
        description: "Refund the shopper, the whole order or part of it, through the store's payment provider",
        action: 'Refund a store order',
      },
    ],
    default: 'getAll',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['storeOrder'] } } },
  ...create.description,
  ...get.description,
  ...getAll.description,
  ...confirm.description,
  ...markPaid.description,
  ...refund.description,
];
