import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as acknowledgeAttention from './acknowledgeAttention.operation';
import * as cancel from './cancel.operation';
import * as fulfilManually from './fulfilManually.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as pay from './pay.operation';
import * as reroute from './reroute.operation';
import * as retry from './retry.operation';
import * as submit from './submit.operation';

export const operations = { acknowledgeAttention, cancel, fulfilManually, get, getAll, pay, reroute, retry, submit } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['supplierOrder'] } },
    options: [
      {
        name: 'Acknowledge Delivery Attention',
        value: 'acknowledgeAttention',
        description: "Acknowledge a sent order's delivery attention (no tracking, no movement, overdue, an exception)",
        action: 'Acknowledge a delivery attention',
      },
      {
        name: 'Cancel',
        value: 'cancel',
        description: 'Withdraw the order at the supplier, where the supplier still allows it',
        action: 'Cancel a supplier order',
      },
      {
        name: 'Fulfil Manually',
        value: 'fulfilManually',
        description: 'Take a part of a store order over so the store ships it itself',
        action: 'Fulfil an order part manually',
      },
      {
        name: 'Get',
        value: 'get',
        description: 'Get a supplier order with its history',
        action: 'Get a supplier order',
      },
      {
        name: 'Get Many',
        value: 'getAll',
        description: 'Get many supplier orders, newest first, filtered',
        action: 'Get many supplier orders',
      },
      {
        name: 'Pay',
        value: 'pay',
        description: 'Pay a supplier order that was created but not paid',
        action: 'Pay a supplier order',
      },
      {
        name: 'Reroute',
        value: 'reroute',
        description: "Send a paused order's items to a backup supplier (the link's alternates)",
        action: 'Reroute a supplier order',
      },
      {
        name: 'Retry',
        value: 'retry',
        description: 'Try a queued, paused or failed supplier order again',
        action: 'Retry a supplier order',
      },
      {
        name: 'Submit',
        value: 'submit',
        description: 'Send one part of a store order to its supplier now',
        action: 'Submit an order part',
      },
    ],
    default: 'getAll',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['supplierOrder'] } } },
  ...getAll.description,
  ...get.description,
  ...submit.description,
  ...retry.description,
  ...reroute.description,
  ...pay.description,
  ...cancel.description,
  ...fulfilManually.description,
  ...acknowledgeAttention.description,
];
