import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as getJob from './getJob.operation';
import * as getJobs from './getJobs.operation';
import * as importProducts from './importProducts.operation';
import * as preview from './preview.operation';

export const operations = { getJob, getJobs, importProducts, preview } satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['import'] } },
    options: [
      {
        name: 'Get Job',
        value: 'getJob',
        description: 'Get the progress of a background import',
        action: 'Get an import job',
      },
      {
        name: 'Get Many Jobs',
        value: 'getJobs',
        description: "Get the store's import jobs, newest first, with their progress",
        action: 'Get many import jobs',
      },
      {
        name: 'Import Products',
        value: 'importProducts',
        description: 'Import supplier products as store products linked to the supplier',
        action: 'Import supplier products',
      },
      {
        name: 'Preview',
        value: 'preview',
        description: 'Price chosen products with the price rule and name duplicates; nothing is charged',
        action: 'Preview an import',
      },
    ],
    default: 'importProducts',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['import'] } } },
  ...preview.description,
  ...importProducts.description,
  ...getJob.description,
  ...getJobs.description,
];
