import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as getProfit from './getProfit.operation';

export const operations = { getProfit } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['report'] } },
    options: [
      {
        name: 'Get Profit',
        value: 'getProfit',
        description: "Get the store's profit over a range of days, by day, product or connection",
        action: 'Get the profit report',
      },
    ],
    default: 'getProfit',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['report'] } } },
  ...getProfit.description,
];
