/**
 * The nodes run inside n8n's own engine (n8n-core, the version that matches n8n-workflow): a workflow of
 * an item source and the node, executed by WorkflowExecute, so parameter resolution (expressions
 * included), Continue On Fail, the error output and paired items are n8n's. The triggers get n8n-core's
 * PollContext, WebhookContext and HookContext. What n8n's CLI package would add (stored credentials), this
 * file gives: the credential's data, applied by the credential type's own `authenticate` block through
 * n8n's expression resolver. HTTP is n8n's helper, for real, against the real service.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import './regex-engine';
import type {
  ICredentialDataDecryptedObject,
  IDataObject,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeType,
  INodeTypes,
  IWorkflowExecuteAdditionalData,
  IRunData,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { StoreSuppliersApi } from '../../../credentials/StoreSuppliersApi.credentials';
import { seen } from '../../support/harness';

// n8n-core keeps its instance settings (an encryption key) in the user folder: a fresh one per test run.
process.env.N8N_USER_FOLDER ??= fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-core-'));
// n8n logs every node error it handles; the tests assert on them instead.
process.env.N8N_LOG_LEVEL ??= 'silent';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

export interface Recorder {
  requests: RecordedRequest[];
  /** Requests whose path starts with the given prefix. */
  to(pathPrefix: string): RecordedRequest[];
  last(): RecordedRequest;
  clear(): void;
  /** Answers to drop once they have arrived (a connection reset after the service acted): the next N matching `path`. */
  lose?: { path: RegExp; count: number };
}

export function recorder(): Recorder {
  const requests: RecordedRequest[] = [];
  return {
    requests,
    to: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    last: () => requests[requests.length - 1],
    clear: () => requests.splice(0, requests.length),
  };
}

const credentialType = new StoreSuppliersApi();

/** Stands in for n8n's CLI credential store: one credential's data, applied as n8n applies a generic `authenticate`. */
class OneCredential extends ICredentialsHelper {
  constructor(
    private readonly data: ICredentialDataDecryptedObject,
    private readonly rec: Recorder,
  ) {
    super();
  }
  getParentTypes(): string[] {
    return [];
  }
  isCredentialUsableByNode(): boolean {
    return true;
  }
  async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, options: IHttpRequestOptions, workflow?: Workflow, node?: INode) {
    if (typeName !== credentialType.name) throw new Error(`Unexpected credential type ${typeName}`);
    const headers: IDataObject = { ...(options.headers ?? {}) };
    for (const [name, value] of Object.entries(credentialType.authenticate.properties.headers ?? {})) {
      headers[name] = workflow!.expression.getSimpleParameterValue(node!, String(value), 'internal', { $credentials: credentials }, undefined, '') as string;
    }
    const url = new URL(options.url, options.baseURL);
    for (const [key, value] of Object.entries(options.qs ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    this.rec.requests.push({
      method: options.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      body: options.body,
      status: 0, // filled in by the recording helper once the answer is there
      headers: headers as Record<string, string>,
    });
    return { ...options, headers };
  }
  async preAuthentication() {
    return undefined;
  }
  async runPreAuthentication() {
    return undefined;
  }
  async getCredentials(): Promise<never> {
    throw new Error('Only decrypted credentials here');
  }
  async getDecrypted() {
    return this.data;
  }
  async updateCredentials() {}
  async updateCredentialsOauthTokenData() {}
  getCredentialsProperties(type: string) {
    if (type !== credentialType.name) throw new Error(`Unexpected credential type ${type}`);
    return credentialType.properties;
  }
}

/**
 * Wraps the context's httpRequestWithAuthentication (n8n's own) to note each answer's status and to
 * hand its text to the harness's leak scan; the request itself is n8n's.
 */
export function recordAnswers(helpers: { httpRequestWithAuthentication?: Function }, rec: Recorder): void {
  const real = helpers.httpRequestWithAuthentication!;
  helpers.httpRequestWithAuthentication = async function (this: unknown, type: string, options: IHttpRequestOptions, ...rest: unknown[]) {
    const route = `${options.method ?? 'GET'} ${new URL(options.url, options.baseURL).pathname}`;
    const note = (status: number, body: unknown) => {
      const last = rec.requests[rec.requests.length - 1];
      if (last && last.status === 0) last.status = status;
      seen.responses.push({ route, text: typeof body === 'string' ? body : JSON.stringify(body ?? '') });
    };
    try {
      const answer = await real.call(this, type, options, ...rest);
      if (options.returnFullResponse) note(answer.statusCode, answer.body);
      else note(200, answer);
      if (rec.lose && rec.lose.count > 0 && rec.lose.path.test(route)) {
        rec.lose.count--;
        throw new Error('socket hang up');
      }
      return answer;
    } catch (error) {
      const e = error as { httpCode?: string; cause?: { response?: { status?: number; data?: unknown } } };
      note(Number(e.httpCode ?? e.cause?.response?.status ?? -1), e.cause?.response?.data);
      throw error;
    }
  };
}

/** A node type whose every context records its HTTP answers (execute, poll, webhook, webhook methods, methods). */
function recordingType(type: INodeType, rec: Recorder): INodeType {
  const wrap = <F extends Function | undefined>(fn: F): F =>
    (fn &&
      function (this: { helpers: { httpRequestWithAuthentication?: Function } }, ...args: unknown[]) {
        if (this?.helpers?.httpRequestWithAuthentication) recordAnswers(this.helpers, rec);
        return fn.apply(this, args);
      }) as F;
  const out = Object.create(type) as INodeType;
  out.execute = wrap(type.execute);
  out.poll = wrap(type.poll);
  out.webhook = wrap(type.webhook);
  if (type.webhookMethods) {
    out.webhookMethods = Object.fromEntries(
      Object.entries(type.webhookMethods).map(([name, methods]) => [name, Object.fromEntries(Object.entries(methods).map(([m, fn]) => [m, wrap(fn)]))]),
    ) as INodeType['webhookMethods'];
  }
  return out;
}

/** The item source: it answers the test's items, as a Manual Trigger followed by a Code node would. */
class ItemsSource implements INodeType {
  constructor(private readonly items: INodeExecutionData[]) {}

  description = {
    displayName: 'Items',
    name: 'items',
    group: ['input'],
    version: 1,
    description: 'The test input',
    defaults: { name: 'Items' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    properties: [],
  } as unknown as INodeType['description'];
  execute = async () => [this.items.map((item) => ({ ...item, json: { ...item.json } }))];
}

export const nodeTypesOf = (types: Record<string, INodeType>): INodeTypes => ({
  getByName: (name) => types[name.split('.').pop()!],
  getByNameAndVersion: (name) => types[name.split('.').pop()!],
  getKnownTypes: () => ({}),
});

let executions = 0;

export function additionalDataOf(credentials: ICredentialDataDecryptedObject, rec: Recorder, workflow: Workflow): IWorkflowExecuteAdditionalData {
  return {
    credentialsHelper: new OneCredential(credentials, rec),
    // Each run its own execution, as in n8n: the node's idempotency keys are made per execution.
    executionId: `test-execution-${++executions}`,
    hooks: new ExecutionLifecycleHooks('manual', 'test-execution', {
      id: workflow.id,
      name: workflow.name,
      nodes: [],
      connections: {},
      active: false,
      settings: {},
    } as never),
    executeWorkflow: async () => {
      throw new Error('No sub-workflows here');
    },
    restApiUrl: 'http://127.0.0.1:5678/rest',
    instanceBaseUrl: 'http://127.0.0.1:5678/',
    webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
    webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
    webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
    formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
    variables: {},
    userId: 'test-user',
    currentNodeParameters: undefined,
    executionTimeoutTimestamp: undefined,
    setExecutionStatus: () => {},
  } as unknown as IWorkflowExecuteAdditionalData;
}

export interface EngineRun {
  /** The node's outputs as n8n stored them in the run data: [success, error output?]. */
  outputs: INodeExecutionData[][];
  /** The error the node's run ended with, when it did (n8n's copy of it). */
  error?: any;
  runData: IRunData;
}

/**
 * Runs `node` after an item source giving `items`, through n8n's WorkflowExecute, and answers its run data.
 * `settings` are the node's own settings in the workflow (onError, continueOnFail, ...).
 */
export async function runInEngine(opts: {
  type: INodeType;
  node: Omit<INode, 'id' | 'position' | 'typeVersion'> & Partial<INode>;
  items: INodeExecutionData[];
  credentials: ICredentialDataDecryptedObject;
  rec: Recorder;
}): Promise<EngineRun> {
  const typeName = opts.node.type.split('.').pop()!;
  const nodeTypes = nodeTypesOf({ [typeName]: recordingType(opts.type, opts.rec), items: new ItemsSource(opts.items) });
  const source: INode = { id: 'items', name: 'Items', type: 'test.items', typeVersion: 1, position: [0, 0], parameters: {} };
  const node: INode = {
    id: 'node-under-test',
    typeVersion: 1,
    position: [200, 0],
    credentials: { storeSuppliersApi: { id: 'test-credential', name: 'Store Suppliers account' } },
    ...opts.node,
  };
  const workflow = new Workflow({
    id: 'test-workflow',
    name: 'Node test',
    nodes: [source, node],
    connections: { Items: { main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]] } },
    active: false,
    nodeTypes,
    settings: {},
  });
  const execute = new WorkflowExecute(additionalDataOf(opts.credentials, opts.rec, workflow), 'manual');
  const run = await execute.run({ workflow, startNode: source, destinationNode: { nodeName: node.name, mode: 'inclusive' } } as never);
  const runData = run.data.resultData.runData;
  const task = runData[node.name]?.[0];
  return {
    outputs: (task?.data?.main ?? []).map((items) => items ?? []),
    error: task?.error ?? run.data.resultData.error,
    runData,
  };
}
