import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationModule } from './helpers';
import { resources, type StoreSuppliersResource } from './node.type';
import { supplierOrderOf } from './supplierOrder/paused';

export function operationFor(resource: string, operation: string): OperationModule | undefined {
	const byOperation = resources[resource as StoreSuppliersResource] as Record<string, OperationModule> | undefined;
	return byOperation?.[operation];
}

/**
 * Runs the chosen operation once per input item, each in its own try/catch. Every output item names
 * the input item it came from (pairedItem), error items under Continue On Fail too.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = operationFor(resource, operation);
	if (!op) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await op.execute.call(this, itemIndex);
			const rows: IDataObject[] = Array.isArray(result) ? result : [result];
			for (const json of rows) returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			if (this.continueOnFail()) {
				const supplierOrder = supplierOrderOf(error);
				returnData.push({
					json: { error: (error as Error).message, ...(supplierOrder ? { supplierOrder } : {}) },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
	return [returnData];
}
