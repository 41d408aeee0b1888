import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { operationFor } from './node.type';
import { pauseOf, supplierOrderOf } from './supplierOrder/paused';

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
 * `reviewReason`, `retryable` and `supplierOrder` beside it. On the error output (On Error: Continue (using
 * error output)) n8n takes an item only when its json holds nothing but `error` and `message` (1.x; 2.x also
 * `details`), and it replaces the json of an item with an item-level error by the message alone; so there the
 * pause's fields ride under `message`, the one name both lines route with its data intact.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const resource = this.getNodeParameter('resource', 0);
  const operation = this.getNodeParameter('operation', 0);
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
          ? { error: nodeError.message, message: pause }
          : { error: nodeError.message, ...pause };
      returnData.push({ json, pairedItem: { item: itemIndex } });
    }
  }
  return [returnData];
}
