import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationModule } from './helpers';
import { resources, type StoreSuppliersResource } from './node.type';
import { pauseOf, supplierOrderOf } from './supplierOrder/paused';

export function operationFor(resource: string, operation: string): OperationModule | undefined {
	const byOperation = resources[resource as StoreSuppliersResource] as Record<string, OperationModule> | undefined;
	return byOperation?.[operation];
}

/** The error as n8n's own error classes carry it (the item index for the editor to point at). */
function nodeErrorOf(this: IExecuteFunctions, caught: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (caught instanceof NodeApiError || caught instanceof NodeOperationError) return caught;
	return new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
}

/**
 * Runs the chosen operation once per input item, each in its own try/catch. Every output item names
 * the input item it came from (pairedItem), error items under Continue On Fail too.
 *
 * Under Continue On Fail, `error` is the message string, as in n8n's own nodes, and a pause carries
 * `reviewReason`, `retryable` and `supplierOrder` beside it. n8n sends an item to the error output (On
 * Error: Continue (using error output)) only when it has an item-level `error` (whose json n8n then
 * replaces with the message alone) or a json of nothing but `error`, `message` and, since n8n 2.x,
 * `details`; so there the pause's fields go under `details`.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = operationFor(resource, operation);
	if (!op) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await op.execute.call(this, itemIndex);
			const rows: IDataObject[] = Array.isArray(result) ? result : [result];
			for (const json of rows) returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const nodeError = nodeErrorOf.call(this, caught, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			const supplierOrder = supplierOrderOf(nodeError);
			const pause = supplierOrder ? pauseOf(supplierOrder) : undefined;
			const json: IDataObject = !pause
				? { error: nodeError.message }
				: toErrorOutput
					? { error: nodeError.message, details: pause }
					: { error: nodeError.message, ...pause };
			returnData.push({ json, pairedItem: { item: itemIndex } });
		}
	}
	return [returnData];
}
