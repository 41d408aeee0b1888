import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { getMany, getManyFields } from '../getMany';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'listImportJobs', method: 'GET', path: '/api/store-suppliers/{storeId}/imports' };

export const description = updateDisplayOptions({ show: { resource: ['import'], operation: ['getJobs'] } }, getManyFields());

/** The store's import jobs, newest first, one item per job with its progress. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  return await getMany.call(this, itemIndex, routing, { storeId: storeId.call(this, itemIndex) });
}
