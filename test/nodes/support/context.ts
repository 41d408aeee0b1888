/**
 * n8n-core's own contexts for the calls n8n makes outside a workflow run: the trigger's poll
 * (PollContext), the webhook and its lifecycle methods (WebhookContext, HookContext) and the editor's
 * list searches (LoadOptionsContext). Each gets a one-node workflow, the credential's data and n8n's
 * HTTP helper (see engine.ts); every request is recorded for the tests to check.
 */
import type { IncomingHttpHeaders } from 'node:http';

import { HookContext, LoadOptionsContext, PollContext, WebhookContext } from 'n8n-core';
import type {
  IDataObject,
  IHookFunctions,
  ILoadOptionsFunctions,
  INode,
  INodeType,
  IPollFunctions,
  IWebhookData,
  IWebhookFunctions,
  IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { StoreSuppliers } from '../../../nodes/StoreSuppliers/StoreSuppliers.node';
import { StoreSuppliersTrigger } from '../../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { additionalDataOf, nodeTypesOf, recordAnswers, recorder, type Recorder } from './engine';

export type { RecordedRequest, Recorder } from './engine';

export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

/** A parameter value, or a function of the item index (what an expression would give per item). */
export type Param = unknown | ((itemIndex: number) => unknown);

/** A resource locator value as n8n stores it. */
export const rl = (value: string, mode: 'list' | 'id' | 'url' = 'id') => ({ __rl: true, mode, value });

interface OneNode {
  node: INode;
  workflow: Workflow;
  additionalData: IWorkflowExecuteAdditionalData;
  rec: Recorder;
}

/** Which saved node and workflow the context belongs to (the defaults: version 1 of `test-workflow`). */
interface Saved {
  typeVersion?: number;
  workflowId?: string;
}

/** A workflow of the one node, as n8n builds it when it activates the workflow or opens the editor. */
function oneNode(
  kind: 'action' | 'trigger',
  credentials: Credentials,
  parameters: Record<string, Param>,
  staticData: IDataObject = {},
  saved: Saved = {},
): OneNode {
  const type: INodeType = kind === 'trigger' ? new StoreSuppliersTrigger() : new StoreSuppliers();
  const node: INode = {
    id: 'node-under-test',
    name: kind === 'trigger' ? 'Store Suppliers Trigger' : 'Store Suppliers',
    type: `n8n-nodes-store-suppliers.${type.description.name}`,
    typeVersion: saved.typeVersion ?? 1,
    position: [0, 0],
    parameters: parameters as INode['parameters'],
    credentials: { storeSuppliersApi: { id: 'test-credential', name: 'Store Suppliers account' } },
  };
  const workflow = new Workflow({
    id: saved.workflowId ?? 'test-workflow',
    name: 'Node test',
    nodes: [node],
    connections: {},
    active: kind === 'trigger',
    nodeTypes: nodeTypesOf({ [type.description.name]: type }),
    staticData: { [`node:${node.name}`]: staticData },
    settings: {},
  });
  const rec = recorder();
  const additionalData = additionalDataOf({ baseUrl: credentials.baseUrl, apiKey: credentials.apiKey }, rec, workflow);
  return { node, workflow, additionalData, rec };
}

export interface PollRun {
  ctx: IPollFunctions;
  rec: Recorder;
  /** How many times the poll asked for its static data. */
  staticDataReads: () => number;
}

export function pollContext(
  opts: Saved & {
    credentials: Credentials;
    parameters: Record<string, Param>;
    staticData: IDataObject;
    mode?: 'trigger' | 'manual';
  },
): PollRun {
  const { node, workflow, additionalData, rec } = oneNode('trigger', opts.credentials, opts.parameters, opts.staticData, opts);
  let reads = 0;
  const ctx = new PollContext(
    workflow,
    node,
    additionalData,
    opts.mode ?? 'trigger',
    opts.mode === 'manual' ? 'manual' : 'activate',
    undefined,
    undefined,
    undefined,
    undefined,
    () => {
      reads++;
      return opts.staticData;
    },
  );
  recordAnswers(ctx.helpers, rec);
  return { ctx, rec, staticDataReads: () => reads };
}

export function loadOptionsContext(opts: { credentials: Credentials; parameters: Record<string, Param> }): {
  ctx: ILoadOptionsFunctions;
  rec: Recorder;
} {
  const { node, workflow, additionalData, rec } = oneNode('action', opts.credentials, opts.parameters);
  additionalData.currentNodeParameters = opts.parameters as INode['parameters'];
  const ctx = new LoadOptionsContext(workflow, node, additionalData, '');
  recordAnswers(ctx.helpers, rec);
  return { ctx, rec };
}

/** The webhook n8n registers for the trigger's webhook mode (the path the node describes). */
function webhookDataOf(one: OneNode): IWebhookData {
  return {
    httpMethod: 'POST',
    node: one.node.name,
    path: `${one.workflow.id}/${encodeURIComponent(one.node.name.toLowerCase())}/webhook`,
    webhookDescription: { name: 'default', httpMethod: 'POST', path: 'webhook', responseMode: 'onReceived' },
    workflowId: one.workflow.id,
    workflowExecuteAdditionalData: one.additionalData,
    isTest: false,
  };
}

/** The trigger's webhook lifecycle (checkExists / create / delete), with n8n's HookContext. */
export function hookContext(opts: {
  credentials: Credentials;
  parameters: Record<string, Param>;
  staticData: IDataObject;
  webhookUrl: string;
  /** manual: the editor listening for a test event. */
  mode?: 'trigger' | 'manual';
}): {
  ctx: IHookFunctions;
  rec: Recorder;
} {
  const one = oneNode('trigger', opts.credentials, opts.parameters, opts.staticData);
  one.additionalData.webhookBaseUrl = opts.webhookUrl;
  const ctx = new HookContext(
    one.workflow,
    one.node,
    one.additionalData,
    opts.mode ?? 'trigger',
    opts.mode === 'manual' ? 'manual' : 'activate',
    webhookDataOf(one),
  );
  // n8n answers the webhook's full address from the base URL and the webhook's path.
  ctx.getNodeWebhookUrl = () => opts.webhookUrl;
  recordAnswers(ctx.helpers, one.rec);
  return { ctx, rec: one.rec };
}

/**
 * One delivery to the trigger's webhook, with n8n's WebhookContext over the request as n8n parses it;
 * mode `manual` is a delivery to the test URL while the editor listens.
 */
export function webhookContext(
  opts: Saved & {
    credentials: Credentials;
    parameters: Record<string, Param>;
    staticData: IDataObject;
    request: { headers: IncomingHttpHeaders; rawBody: Buffer };
    mode?: 'trigger' | 'manual';
  },
): { ctx: IWebhookFunctions; response: { status?: number; body?: unknown } } {
  const one = oneNode('trigger', opts.credentials, opts.parameters, opts.staticData, opts);
  const response: { status?: number; body?: unknown } = {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(opts.request.rawBody.toString('utf8'));
  } catch {
    parsed = {};
  }
  const res = {
    status(code: number) {
      response.status = code;
      return res;
    },
    json(body: unknown) {
      response.body = body;
      return res;
    },
    send(body: unknown) {
      response.body = body;
      return res;
    },
    end() {
      return res;
    },
  };
  one.additionalData.httpRequest = {
    headers: opts.request.headers,
    rawBody: opts.request.rawBody,
    body: parsed,
    query: {},
    params: {},
    method: 'POST',
  } as never;
  one.additionalData.httpResponse = res as never;
  const ctx = new WebhookContext(one.workflow, one.node, one.additionalData, opts.mode ?? 'trigger', webhookDataOf(one), [], null);
  return { ctx, response };
}
