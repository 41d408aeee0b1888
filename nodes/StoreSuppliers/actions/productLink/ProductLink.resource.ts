import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as create from './create.operation';
import * as deleteLink from './delete.operation';
import * as getAll from './getAll.operation';
import * as sync from './sync.operation';
import * as update from './update.operation';

export const operations = { create, delete: deleteLink, getAll, sync, update } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['productLink'] } },
    options: [
      {
        name: 'Create',
        value: 'create',
        description: 'Link a product the store already has to a supplier product',
        action: 'Create a product link',
      },
      {
        name: 'Delete',
        value: 'delete',
        description: "Unlink; the product stays as the store's own",
        action: 'Delete a product link',
      },
      {
        name: 'Get Many',
        value: 'getAll',
        description: "Get many of the store's product links",
        action: 'Get many product links',
      },
      {
        name: 'Sync',
        value: 'sync',
        description: 'Sync a link now, within its sync switches',
        action: 'Sync a product link',
      },
      {
        name: 'Update',
        value: 'update',
        description: "Change a link's variants, backup suppliers, price rule or sync switches",
        action: 'Update a product link',
      },
    ],
    default: 'getAll',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['productLink'] } } },
  ...getAll.description,
  ...create.description,
  ...update.description,
  ...deleteLink.description,
  ...sync.description,
];
