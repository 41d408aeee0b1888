import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { linkRoutingField, optionalFields, priceRuleField, routingCapField, supplierProductIdField, syncField, variantsField } from '../common.descriptions';
import { compact, connectionId, idParameter, linkRoutingOf, priceRuleOf, storeId, variantsOf } from '../helpers';
import { connectionRLC } from '../locator';
import { alternatesField, alternatesOf } from './alternates';

export const routing: Route = { operationId: 'createProductLink', method: 'POST', path: '/api/store-suppliers/{storeId}/links', idempotent: true };

const properties: INodeProperties[] = [
  connectionRLC,
  {
    displayName: 'Store Product ID',
    name: 'productId',
    type: 'string',
    default: '',
    required: true,
    description: 'The product the store already has',
  },
  supplierProductIdField,
  { ...variantsField, required: true },
  alternatesField,
  optionalFields('options', [routingCapField('routingRule'), priceRuleField, linkRoutingField, syncField]),
];

export const description = updateDisplayOptions({ show: { resource: ['productLink'], operation: ['create'] } }, properties);

/** Links a store product to a supplier product; every store variant maps to one supplier variant, with its backups if given. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
  const variants = variantsOf(this.getNodeParameter('variants', itemIndex, {}) as { variant?: IDataObject[] });
  if (!variants.length) throw new NodeOperationError(this.getNode(), 'Map at least one variant', { itemIndex });
  const sync = options.sync as IDataObject | undefined;
  const alternates = alternatesOf(this.getNodeParameter('alternates', itemIndex, {}) as { alternate?: IDataObject[] });
  const body = compact({
    productId: idParameter.call(this, 'productId', itemIndex, 'The store product ID'),
    connectionId: connectionId.call(this, itemIndex),
    supplierProductId: idParameter.call(this, 'supplierProductId', itemIndex, 'The supplier product ID'),
    variants,
    alternates: alternates.length ? alternates : undefined,
    priceRule: priceRuleOf(options.priceRule as IDataObject | undefined),
    sync: sync && Object.keys(sync).length ? sync : undefined,
    // The store's rule is what a link without one follows: nothing to send.
    routing: linkRoutingOf(options) ?? undefined,
  });
  return (await callRoute.call(this, routing, { storeId: storeId.call(this, itemIndex) }, { body, itemIndex })) as IDataObject;
}
