import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { getManyFields, limitOf } from '../getMany';
import { storeId } from '../helpers';

export const routing: Route = { operationId: 'listSupplierConnections', method: 'GET', path: '/api/store-suppliers/{storeId}' };

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['getAll'] } }, getManyFields());

/** The store's connections with health and automation: the service answers them all at once (no pages), so the limit is cut here. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const rows = (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { itemIndex })) as IDataObject[];
  return rows.slice(0, limitOf.call(this, itemIndex));
}
