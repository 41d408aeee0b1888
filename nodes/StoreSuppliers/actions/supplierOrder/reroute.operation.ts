import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { supplierOrderIdField, supplierOrderParams } from './common';
import { sendSupplierOrder } from './paused';

export const routing: Route = {
  operationId: 'rerouteSupplierOrder',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/reroute',
  idempotent: true,
};

const options = optionalFields('options', [
  {
    displayName: 'Target Connection Name or ID',
    name: 'connectionId',
    type: 'options',
    typeOptions: { loadOptionsMethod: 'getConnections', loadOptionsDependsOn: ['store.value'] },
    default: '',
    description:
      'Reroute to the alternates on this connection only; left out, each alternate of the link in order. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
  },
]);

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['reroute'] } }, [supplierOrderIdField, options]);

/**
 * Sends a paused order's items to a backup supplier. Answers the order, now cancelled with a `rerouted` history
 * entry naming the new one; when no alternate could take them the pause stands, and that is an error naming the
 * alternates tried (as a pause of Submit or Retry is).
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const chosen = String((this.getNodeParameter('options', itemIndex, {}) as IDataObject).connectionId ?? '').trim();
  const body = chosen ? { connectionId: chosen } : {};
  return await sendSupplierOrder.call(this, itemIndex, routing, supplierOrderParams.call(this, itemIndex), undefined, body);
}
