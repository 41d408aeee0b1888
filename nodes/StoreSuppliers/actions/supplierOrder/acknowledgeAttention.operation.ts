import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { DELIVERY_ATTENTION_REASONS, DELIVERY_ATTENTION_WORDS } from '../../after-shipping-words';
import { optionsOf } from '../options';
import { supplierOrderIdField, supplierOrderParams } from './common';

export const routing: Route = {
  operationId: 'acknowledgeDeliveryAttention',
  method: 'POST',
  path: '/api/store-suppliers/{storeId}/orders/{supplierOrderId}/delivery-attention/acknowledge',
};

const properties: INodeProperties[] = [
  supplierOrderIdField,
  {
    displayName: 'Reason Seen',
    name: 'reason',
    type: 'options',
    options: optionsOf(DELIVERY_ATTENTION_REASONS, (v) => DELIVERY_ATTENTION_WORDS[v].advice),
    default: 'noMovement',
    description: "The delivery attention's reason as it was read; another one now is an error (attentionChanged)",
  },
];

export const description = updateDisplayOptions({ show: { resource: ['supplierOrder'], operation: ['acknowledgeAttention'] } }, properties);

/** Acknowledges a sent order's delivery attention: it clears, and that reason is not raised again until its threshold passes anew. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const body = { reason: this.getNodeParameter('reason', itemIndex) as string };
  return (await callRoute.call(this, routing, supplierOrderParams.call(this, itemIndex), { body, itemIndex })) as IDataObject;
}
