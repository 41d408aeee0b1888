/**
 * The editor's Test step on the trigger, as n8n decides it: n8n listens for a test event when the node
 * registers a webhook (each method of its description's httpMethod, evaluated against the node's
 * parameters with their defaults), and otherwise runs the node's poll in manual mode. In polling mode
 * (version 1 nodes by default, 1.1 nodes switched to it) no webhook may be registered, so the Test step
 * polls; in webhook mode the webhook is registered, and the event a test delivery brings is the
 * trigger's output of the manual run n8n starts with it (n8n-core runs the node's poll there too).
 */
import { WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, IRun, IWebhookDescription } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { StoreSuppliersTrigger } from '../../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { webhookHeaders } from '../../../server/events/signing';
import { openShop } from '../../support/orders';
import { Param, pollContext, rl, webhookContext } from '../support/context';
import { additionalDataOf, nodeTypesOf, recorder } from '../support/engine';
import { credentialsOf, leakScanTest, pausedOrder, setUp } from '../support/world';

const s = setUp('trigger', (w) => openShop(w.svc, w.sandbox, { balanceMinor: 0, page: 3 }));

const trigger = new StoreSuppliersTrigger();
const creds = () => credentialsOf(s.world.svc, s.shop.owner.key);

/** A saved workflow of the trigger alone, as n8n loads it (the Workflow fills in the parameters' defaults). */
function savedTrigger(typeVersion: number, parameters: Record<string, Param>): { workflow: Workflow; node: INode } {
  const node: INode = {
    id: 'trigger',
    name: 'Store Suppliers Trigger',
    type: 'n8n-nodes-store-suppliers.storeSuppliersTrigger',
    typeVersion,
    position: [0, 0],
    parameters: { store: rl(s.shop.storeId, 'list'), ...parameters } as INode['parameters'],
    credentials: { storeSuppliersApi: { id: 'test-credential', name: 'Store Suppliers account' } },
  };
  const workflow = new Workflow({
    id: 'test-step-workflow',
    name: 'Test step',
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes: nodeTypesOf({ storeSuppliersTrigger: trigger }),
    staticData: {},
    settings: {},
  });
  return { workflow, node: workflow.getNode(node.name)! };
}

/** The webhooks n8n registers for the node (its CLI's getNodeWebhooks: path and methods evaluated per node). */
function registered(typeVersion: number, parameters: Record<string, Param>) {
  const { workflow, node } = savedTrigger(typeVersion, parameters);
  const value = (d: IWebhookDescription, field: string, fallback?: unknown) =>
    workflow.expression.getSimpleParameterValue(node, d[field] as string, 'internal', {}, undefined, fallback as never);
  return (trigger.description.webhooks ?? []).flatMap((d) => {
    const path = value(d, 'path');
    const methods = value(d, 'httpMethod', 'GET');
    if (path === undefined || path === null || methods === undefined) return [];
    const urlShown = !(typeof d.ndvHideUrl === 'string' ? value(d, 'ndvHideUrl') : d.ndvHideUrl);
    return String(methods)
      .split(',')
      .filter(Boolean)
      .map((method) => ({ method: method.trim(), path: String(path), urlShown }));
  });
}

describe('the editor listens for a webhook only in webhook mode', () => {
  test.each([
    ['a version 1 node saved without a mode (polling)', 1, {}],
    ['a version 1 node in polling mode', 1, { mode: 'polling' }],
    ['a version 1.1 node switched to polling', 1.1, { mode: 'polling' }],
  ])('%s registers no webhook, so Test step polls', (_what, version, params) => {
    expect(registered(version, params)).toEqual([]);
  });

  test.each([
    ['a version 1.1 node (webhook mode by default)', 1.1, {}],
    ['a version 1.1 node in webhook mode', 1.1, { mode: 'webhook' }],
    ['a version 1 node switched to webhook mode', 1, { mode: 'webhook' }],
  ])('%s registers its POST webhook and shows its URL', (_what, version, params) => {
    expect(registered(version, params)).toEqual([{ method: 'POST', path: 'webhook', urlShown: true }]);
  });
});

test('polling mode, Test step: the manual run polls the store and answers the newest order in a chosen status', async () => {
  const so = await pausedOrder(s.world.svc, s.shop);
  const { workflow, node } = savedTrigger(1, {});
  const rec = recorder();
  const run: IRun = await new WorkflowExecute(additionalDataOf(creds(), rec, workflow), 'manual').run({
    workflow,
    startNode: node,
    destinationNode: { nodeName: node.name, mode: 'inclusive' },
  } as never);
  const out = run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? [];
  expect(out.map((i) => [i.json._id, i.json.event])).toEqual([[so._id, 'needsReview']]);
});

describe('webhook mode, Test step: the test delivery is what the manual run puts out', () => {
  const SECRET = `whsec_${Buffer.from('a test signing key of 32 bytes!!').toString('base64')}`;
  const event = (id: string) => ({
    id,
    type: 'supplierOrder.paused',
    createdAt: new Date().toISOString(),
    storeId: 'store-1',
    data: { _id: `so-${id}`, status: 'needsReview' },
  });

  /** n8n's test webhook: the node's webhook() in manual mode, then the run it starts with the webhook's items. */
  async function testDelivery(body: IDataObject, typeVersion = 1.1, parameters: Record<string, Param> = {}) {
    const raw = JSON.stringify(body);
    const { ctx } = webhookContext({
      credentials: creds(),
      parameters: { store: rl('store-1', 'list'), ...parameters },
      staticData: { subscriptionId: 'sub-1', secret: SECRET },
      request: { headers: webhookHeaders([SECRET], String(body.id), raw), rawBody: Buffer.from(raw) },
      mode: 'manual',
      typeVersion,
      workflowId: 'test-step-workflow',
    });
    const answer = await trigger.webhook!.call(ctx);
    expect(answer.workflowData?.[0].map((i) => i.json)).toEqual([body]);
    const { workflow, node } = savedTrigger(typeVersion, parameters);
    const runData = createRunExecutionData({ executionData: { nodeExecutionStack: [{ node, data: { main: answer.workflowData! }, source: null }] } });
    const run = await new WorkflowExecute(additionalDataOf(creds(), recorder(), workflow), 'manual', runData).processRunExecutionData(workflow);
    return (run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
  }

  test('the event delivered to the test URL comes out of the trigger, once', async () => {
    const first = event('evt_test_1');
    expect(await testDelivery(first)).toEqual([first]);
    // Each delivery hands over its own event; nothing is left for a later run.
    const second = event('evt_test_2');
    expect(await testDelivery(second, 1, { mode: 'webhook' })).toEqual([second]);
    const p = pollContext({
      credentials: creds(),
      parameters: { store: rl('store-1', 'list'), mode: 'webhook' },
      staticData: {},
      mode: 'manual',
      workflowId: 'test-step-workflow',
    });
    expect(await trigger.poll!.call(p.ctx)).toBeNull();
    expect(p.rec.requests).toEqual([]);
  });

  test("an active workflow's scheduled poll in webhook mode still does nothing", async () => {
    const p = pollContext({
      credentials: creds(),
      parameters: { store: rl('store-1', 'list'), mode: 'webhook' },
      staticData: {},
      mode: 'trigger',
      workflowId: 'test-step-workflow',
    });
    expect(await trigger.poll!.call(p.ctx)).toBeNull();
    expect(p.rec.requests).toEqual([]);
  });
});

leakScanTest(s);
