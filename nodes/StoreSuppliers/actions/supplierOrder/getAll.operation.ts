import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { filtersOf, getMany, getManyFields } from '../getMany';
import { simplifyField, storeId } from '../helpers';
import { optionsOf } from '../options';
import { SUPPLIER_ORDER_STATUSES } from '../../vocabulary';

export const routing: Route = { operationId: 'listSupplierOrders', method: 'GET', path: '/api/store-suppliers/{storeId}/orders' };

/** A supplier order's statuses, from the vocabulary. */
export const STATUS_OPTIONS = optionsOf(SUPPLIER_ORDER_STATUSES);

export const CONTRACT_MODEL_OPTIONS = [
  { name: 'Promise to Sell', value: 'promiseToSell' },
  { name: 'Standard', value: 'standard' },
];

/** Filters the list and the trigger share. */
export const SHARED_ORDER_FILTERS: INodeProperties[] = [
  {
    displayName: 'Connection Name or ID',
    name: 'integrationId',
    type: 'options',
    typeOptions: { loadOptionsMethod: 'getConnections', loadOptionsDependsOn: ['store.value'] },
    default: '',
    description:
      'Only supplier orders of this connection. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
  },
  {
    displayName: 'Contract Model',
    name: 'contractModel',
    type: 'options',
    options: [{ name: 'Any', value: '' }, ...CONTRACT_MODEL_OPTIONS],
    default: '',
  },
];

const fields = getManyFields([
  ...SHARED_ORDER_FILTERS,
  {
    displayName: 'Needs Attention',
    name: 'needsAttention',
    type: 'boolean',
    default: true,
    description: 'Whether to return only sent supplier orders whose delivery needs a look (deliveryAttention)',
  },
  {
    displayName: 'Needs Review',
    name: 'needsReview',
    type: 'boolean',
    default: true,
    description: 'Whether to return only supplier orders waiting for review',
  },
  {
    displayName: 'Status',
    name: 'status',
    type: 'options',
    options: [{ name: 'Any', value: '' }, ...STATUS_OPTIONS],
    default: '',
  },
  {
    displayName: 'Store Order ID',
    name: 'orderId',
    type: 'string',
    default: '',
    description: 'Only the supplier orders of this store order',
  },
]);

export const description = [
  ...updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['getAll'] } }, fields),
  simplifyField('supplierOrder', 'getAll', true),
];

/** The list's query for the filters given (the trigger's poll uses it too). */
export function supplierOrderQuery(filters: IDataObject): IDataObject {
  const { status, needsReview, needsAttention, integrationId, orderId, contractModel } = filters;
  const flag = (v: unknown) => (v === undefined ? undefined : Boolean(v));
  return { status, needsReview: flag(needsReview), needsAttention: flag(needsAttention), integrationId, orderId, contractModel };
}

/** Supplier orders, newest first, filtered; with Return All every page is read before any is returned. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
  const qs = supplierOrderQuery(filtersOf.call(this, itemIndex));
  return await getMany.call(this, itemIndex, routing, { storeId: storeId.call(this, itemIndex) }, { qs, simplify: 'supplierOrder' });
}
