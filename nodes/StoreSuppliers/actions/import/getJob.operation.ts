import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { idParameter, storeId } from '../helpers';
import { recordLocator } from '../locator';

export const routing: Route = { operationId: 'getImportJob', method: 'GET', path: '/api/store-suppliers/{storeId}/imports/{jobId}' };

const jobLocator = recordLocator({
  displayName: 'Import Job',
  name: 'jobId',
  search: 'searchImportJobs',
  example: '5e8d2a1c-3f4b-4a6e-9c7d-1b0a2f3e4d5c',
  description: "A background import: pick it from the store's jobs, or give the ID Import Products answered",
});

export const description = updateDisplayOptions({ show: { resource: ['import'], operation: ['getJob'] } }, [jobLocator]);

/** Progress of a background import: status, total, done, failed, errors and created products. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const params = { storeId: storeId.call(this, itemIndex), jobId: idParameter.call(this, 'jobId', itemIndex, 'The job ID') };
  return (await callRoute.call(this, routing, params, { itemIndex })) as IDataObject;
}
