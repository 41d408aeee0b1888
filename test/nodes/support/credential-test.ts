/** The credential's test request in n8n-core, as n8n's credential tester runs it. */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, ICredentialType, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { createEmptyRunExecutionData, Workflow } from 'n8n-workflow';

import { additionalDataOf, nodeTypesOf, recorder } from './engine';

/**
 * A credential test as n8n's credential tester runs a request-based one: the test request is the routing
 * of a stand-in node, run by n8n-core's RoutingNode in an ExecuteContext with the credential to test.
 * What n8n's CLI then makes of the outcome (a connection error's code, a status outside 2xx, the
 * responseSuccessBody rules on an answer) is its code, not n8n-core's: replayed here.
 */
export async function testCredential(type: ICredentialType, data: ICredentialDataDecryptedObject): Promise<{ status: 'OK' | 'Error'; message: string }> {
  const test = type.test as ICredentialTestRequest;
  const node: INode = {
    id: 'temp',
    name: 'Temp-Node',
    type: 'credentialTest',
    typeVersion: 1,
    position: [0, 0],
    parameters: {},
    credentials: { [type.name]: { id: 'test-credential', name: 'Store Suppliers account' } },
  };
  const nodeType = {
    description: {
      displayName: 'Credential test',
      name: 'credentialTest',
      group: ['transform'],
      version: 1,
      description: '',
      defaults: {},
      inputs: [],
      outputs: [],
      credentials: [{ name: type.name, required: true }],
      properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
    },
  } as unknown as INodeType;
  const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: nodeTypesOf({ credentialTest: nodeType }) });
  const additionalData = additionalDataOf(data, recorder(), workflow);
  additionalData.currentNodeParameters = node.parameters;
  const context = new ExecuteContext(
    workflow,
    node,
    additionalData,
    'internal',
    createEmptyRunExecutionData(),
    0,
    [],
    { main: [[{ json: {} }]] },
    { node, data: {}, source: null },
    [],
  );
  const credentials = { id: 'test-credential', name: 'Store Suppliers account', type: type.name, data };
  let response: INodeExecutionData[][] | null | undefined;
  try {
    response = await new RoutingNode(context, nodeType, credentials).runNode();
  } catch (error) {
    const e = error as { message: string; cause?: { code?: string; response?: { status: number; statusText?: string } } };
    if (e.cause?.response) {
      const { status, statusText } = e.cause.response;
      for (const rule of test.rules ?? [])
        if (rule.type === 'responseCode' && rule.properties.value === status) return { status: 'Error', message: rule.properties.message };
      if (status < 199 || status > 299) return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
    } else if (e.cause?.code) return { status: 'Error', message: e.cause.code };
    return { status: 'Error', message: String(e.message) };
  }
  const answer = response?.[0]?.[0]?.json ?? {};
  for (const rule of test.rules ?? []) {
    if (rule.type === 'responseSuccessBody' && valueAt(answer, rule.properties.key) === rule.properties.value)
      return { status: 'Error', message: rule.properties.message };
  }
  return { status: 'OK', message: 'Connection successful!' };
}

const valueAt = (obj: unknown, key: string): unknown => key.split('.').reduce<any>((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);
