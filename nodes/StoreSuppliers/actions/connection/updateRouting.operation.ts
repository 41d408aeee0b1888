import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { ROUTING_RULE_OPTIONS, routingCapField } from '../common.descriptions';
import { routingRuleOf, storeId } from '../helpers';

export const routing: Route = { operationId: 'changeSupplierRouting', method: 'PUT', path: '/api/store-suppliers/{storeId}/routing' };

const properties: INodeProperties[] = [
  {
    displayName: 'Routing Rule',
    name: 'routingRule',
    type: 'options',
    options: ROUTING_RULE_OPTIONS,
    default: 'primary',
    required: true,
    description:
      "How a part's supplier is chosen among its product link's primary and alternates, for the whole store (a link's own rule overrides it). Dispatch chooses each part's supplier by it before sending (its history's routed entry says how).",
  },
  routingCapField('routingRule'),
];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['updateRouting'] } }, properties);

/** Sets the store's routing rule: a store setting, as it chooses between the store's connections. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const rule = String(this.getNodeParameter('routingRule', itemIndex));
  const cap = rule === 'fastest' ? this.getNodeParameter('maxCostAboveCheapestPercent', itemIndex, 10) : undefined;
  const body = { routing: routingRuleOf(rule, cap) };
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { body, itemIndex })) as IDataObject;
}
