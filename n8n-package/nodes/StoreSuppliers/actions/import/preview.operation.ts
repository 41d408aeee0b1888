import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { connectionRLC, priceRuleField, productsField } from '../common.descriptions';
import { compact, connectionId, priceRuleOf, productsOf, storeId } from '../helpers';

export const routing: Route = {
	operationId: 'previewImport',
	method: 'POST',
	path: '/api/store-suppliers/{storeId}/{id}/import/preview',
};

const properties: INodeProperties[] = [connectionRLC, productsField, priceRuleField];

export const description = updateDisplayOptions(
	{ show: { resource: ['import'], operation: ['preview'] } },
	properties,
);

/** Prices the chosen products with the price rule and names duplicates; nothing is written or charged. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body = compact({
		products: productsOf.call(this, itemIndex),
		priceRule: priceRuleOf(this.getNodeParameter('priceRule', itemIndex, {}) as IDataObject),
	});
	const params = { storeId: storeId.call(this, itemIndex), id: connectionId.call(this, itemIndex) };
	return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
