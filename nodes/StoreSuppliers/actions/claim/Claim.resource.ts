import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as cancel from './cancel.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as open from './open.operation';
import * as recordOutcome from './recordOutcome.operation';

export const operations = { cancel, get, getAll, open, recordOutcome } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['claim'] } },
    options: [
      { name: 'Cancel', value: 'cancel', description: 'Withdraw a claim with the supplier', action: 'Cancel a claim' },
      { name: 'Get', value: 'get', description: 'Get a claim with its outcome', action: 'Get a claim' },
      { name: 'Get Many', value: 'getAll', description: "Get a supplier order's claims", action: 'Get many claims' },
      { name: 'Open', value: 'open', description: 'Open a claim with the supplier for a refund or a reship', action: 'Open a claim' },
      {
        name: 'Record Outcome',
        value: 'recordOutcome',
        description: "Record the supplier's decision on a claim a person sent",
        action: 'Record a claim outcome',
      },
    ],
    default: 'open',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['claim'] } } },
  ...open.description,
  ...get.description,
  ...getAll.description,
  ...recordOutcome.description,
  ...cancel.description,
];
