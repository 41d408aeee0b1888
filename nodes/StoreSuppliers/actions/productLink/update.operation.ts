import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { linkRoutingField, optionalFields, priceRuleField, routingCapField, syncField, variantsField } from '../common.descriptions';
import { linkRoutingOf, priceRuleOf, variantsOf } from '../helpers';
import { alternatesField, alternatesOf, removeAlternatesField } from './alternates';
import { linkIdField, linkParams } from './linkId';

export const routing: Route = { operationId: 'updateProductLink', method: 'PUT', path: '/api/store-suppliers/{storeId}/links/{linkId}' };

const properties: INodeProperties[] = [
  linkIdField,
  optionalFields('updateFields', [
    alternatesField,
    routingCapField('routingRule'),
    priceRuleField,
    removeAlternatesField,
    linkRoutingField,
    syncField,
    variantsField,
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['productLink'], operation: ['update'] } }, properties);

/** Changes a link's variant mapping, backup suppliers (the list given replaces them), price rule, sync switches or routing rule. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
  const body: IDataObject = {};
  const priceRule = priceRuleOf(fields.priceRule as IDataObject | undefined);
  if (priceRule) body.priceRule = priceRule;
  const sync = fields.sync as IDataObject | undefined;
  if (sync && Object.keys(sync).length) body.sync = sync;
  const variants = variantsOf(fields.variants as { variant?: IDataObject[] } | undefined);
  if (variants.length) body.variants = variants;
  const alternates = alternatesOf(fields.alternates as { alternate?: IDataObject[] } | undefined);
  if (fields.removeAlternates === true) {
    if (alternates.length) throw new NodeOperationError(this.getNode(), 'Give Alternates or Remove All Alternates, not both', { itemIndex });
    body.alternates = [];
  } else if (alternates.length) body.alternates = alternates;
  const linkRouting = linkRoutingOf(fields);
  if (linkRouting !== undefined) body.routing = linkRouting;
  if (Object.keys(body).length === 0) {
    throw new NodeOperationError(this.getNode(), 'Add at least one field to update', { itemIndex });
  }
  const params = linkParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
