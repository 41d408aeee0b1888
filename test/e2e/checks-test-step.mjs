/**
 * The editor's "Test step" on the trigger (Fetch Test Event / Listen for test event), through n8n's REST API
 * as the editor calls it: POST /rest/workflows/:id/run with the trigger as the start and destination node
 * (1.x sends the workflow, 2.x its id). Three saved workflows of the trigger alone, imported before n8n
 * starts and never activated:
 *  - a version 1 node saved without a mode (polling): the run polls the store and puts out the newest paused
 *    order, instead of answering { waitingForWebhook: true };
 *  - a version 1.1 node switched to polling: the same;
 *  - a version 1.1 node in webhook mode: n8n answers { waitingForWebhook: true }, the node subscribes the
 *    test URL at the service, a new pause is delivered there and the run n8n starts with it puts out the
 *    supplierOrder.paused event; then the test subscription is gone again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const TYPE = 'n8n-nodes-store-suppliers.storeSuppliersTrigger';
const NODE = 'Store Suppliers Trigger';
const store = (id) => ({ __rl: true, mode: 'id', value: id });

/** The three workflows, written and imported (n8n must not be running yet); answers their ids. */
export async function importTestStepWorkflows({ dir, storeId, credentialId, n8n }) {
  const variants = {
    ssTestStepV1: { typeVersion: 1, parameters: { store: store(storeId), events: ['needsReview'] } },
    ssTestStepPoll: { typeVersion: 1.1, parameters: { mode: 'polling', store: store(storeId), events: ['needsReview'] } },
    ssTestStepHook: {
      typeVersion: 1.1,
      parameters: { mode: 'webhook', store: store(storeId), eventTypes: ['supplierOrder.paused'] },
      webhookId: crypto.randomUUID(),
    },
  };
  fs.mkdirSync(dir, { recursive: true });
  for (const [id, v] of Object.entries(variants)) {
    const node = {
      id: crypto.randomUUID(),
      name: NODE,
      type: TYPE,
      typeVersion: v.typeVersion,
      position: [0, 0],
      parameters: v.parameters,
      credentials: { storeSuppliersApi: { id: credentialId, name: 'Store Suppliers account' } },
    };
    if (v.webhookId) node.webhookId = v.webhookId;
    const file = path.join(dir, `${id}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({ id, name: `Test step: ${id}`, active: false, nodes: [node], connections: {}, settings: { executionOrder: 'v1' } }, null, 2),
    );
    await n8n(['import:workflow', `--input=${file}`]);
  }
  return { v1: 'ssTestStepV1', polling: 'ssTestStepPoll', webhook: 'ssTestStepHook' };
}

/**
 * Signs in to n8n's REST API as the owner (setting the owner up the first time); answers a caller with the
 * cookie. n8n answers /healthz, and runs active workflows, before its REST API is up: until then a REST
 * call is answered 200 "n8n is starting up" (the set-up with no cookie) or 404, so this tries until a
 * set-up or a sign-in gives the session cookie.
 */
export async function ownerSession(base) {
  const headers = { 'Content-Type': 'application/json', 'browser-id': 'e2e-browser' };
  const owner = { email: 'owner@example.test', password: 'E2e-password-123' };
  const post = (p, body) =>
    fetch(`${base}${p}`, { method: 'POST', headers, body: JSON.stringify(body) }).catch((error) => ({
      ok: false,
      status: 0,
      headers: new Headers(),
      text: async () => String(error),
    }));
  const cookieOf = (res) => (res.ok ? (res.headers.get('set-cookie') ?? '').split(';')[0] : '');
  const deadline = Date.now() + 120000;
  let cookie = '';
  let last = '';
  while (!cookie.startsWith('n8n-auth=')) {
    if (Date.now() > deadline) throw new Error(`n8n gave no owner session within 120 s; last answer: ${last}`);
    let res = await post('/rest/owner/setup', { ...owner, firstName: 'E2E', lastName: 'Owner' });
    cookie = cookieOf(res);
    if (!cookie) {
      res = await post('/rest/login', { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password });
      cookie = cookieOf(res);
    }
    if (!cookie) {
      last = `${res.status} ${(await res.text()).slice(0, 200)}`;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return async (method, p, body) => {
    const answer = await fetch(`${base}${p}`, { method, headers: { ...headers, Cookie: cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await answer.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, ok: answer.ok, json, text };
  };
}

export async function testStepChecks(ctx) {
  const { check, expect, waitFor, rest, n8nVersion, n8nBin, ids, storeId, proxy, api, submitPaused } = ctx;
  // n8n stores an execution's data with flatted; read it with n8n's own copy.
  const flatted = createRequire(n8nBin)('flatted');
  const major = Number(n8nVersion.split('.')[0]);

  /** The editor's Test step on the trigger: its manual run with the trigger as start and destination. */
  const testStep = async (workflowId) => {
    const body = { startNodes: [{ name: NODE, sourceData: null }], destinationNode: { nodeName: NODE, mode: 'inclusive' } };
    if (major >= 2) body.workflowId = workflowId;
    else {
      const saved = await rest('GET', `/rest/workflows/${workflowId}`);
      expect(saved.ok, `GET /rest/workflows/${workflowId} answered ${saved.status}`, saved.text);
      body.workflowData = saved.json.data;
    }
    const res = await rest('POST', `/rest/workflows/${workflowId}/run`, body);
    expect(res.ok, `POST /rest/workflows/${workflowId}/run answered ${res.status}`, res.text);
    return res.json.data;
  };

  /** A finished execution's items out of the trigger. */
  const triggerOutput = async (executionId) => {
    const execution = await waitFor(
      `execution ${executionId} to finish`,
      async () => {
        const res = await rest('GET', `/rest/executions/${executionId}`);
        const e = res.json?.data;
        return e && e.status !== 'running' && e.status !== 'new' && e.stoppedAt ? e : undefined;
      },
      60000,
      500,
    );
    const data = typeof execution.data === 'string' ? flatted.parse(execution.data) : execution.data;
    const run = data?.resultData?.runData?.[NODE]?.[0];
    expect(execution.status === 'success' && !data?.resultData?.error, `the run succeeded (${execution.status})`, data?.resultData?.error);
    return (run?.data?.main?.[0] ?? []).map((i) => i.json);
  };

  const newestPaused = async () => {
    const page = await api('GET', `/api/store-suppliers/${storeId}/orders?needsReview=true&pageSize=100`);
    const at = (so) =>
      (so.events ?? [])
        .filter((e) => e.to === 'needsReview')
        .map((e) => e.at)
        .sort()
        .pop() ?? '';
    return page.items.filter((so) => so.status === 'needsReview').sort((a, b) => (at(a) < at(b) ? 1 : -1))[0];
  };

  const pollingStep = (what, workflowId) =>
    check(`Test step on ${what}: n8n runs the poll (not waitingForWebhook) and puts out the newest paused order`, async () => {
      const expected = await newestPaused();
      expect(expected, 'the store has a paused supplier order');
      const before = proxy.seen.length;
      const answer = await testStep(workflowId);
      expect(!answer?.waitingForWebhook && answer?.executionId, 'n8n started a run instead of waiting for a webhook', answer);
      const items = await triggerOutput(answer.executionId);
      expect(
        items.length === 1 && items[0]._id === expected._id && items[0].event === 'needsReview' && items[0].reviewReason === expected.reviewReason,
        'the trigger put out the newest paused order',
        items.map((i) => [i._id, i.event]),
      );
      const polls = proxy.seen
        .slice(before)
        .filter((r) => r.method === 'GET' && r.path === `/api/store-suppliers/${storeId}/orders` && r.query.needsReview === 'true');
      expect(
        polls.length >= 1,
        'the run read the orders waiting for review at the service',
        proxy.seen.slice(before).map((r) => `${r.method} ${r.path}`),
      );
      expect(!proxy.seen.slice(before).some((r) => r.path.includes('/event-subscriptions')), 'and made no subscription');
    });

  await pollingStep('a version 1 trigger (polling, saved without a mode)', ids.v1);
  await pollingStep('a version 1.1 trigger switched to polling', ids.polling);

  await check(
    "Test step on a version 1.1 trigger in webhook mode: n8n listens, the test URL is subscribed, a new pause delivered there is the run's output",
    async () => {
      const subscriptions = async () =>
        ((await api('GET', `/api/store-suppliers/${storeId}/event-subscriptions`))?.items ?? []).filter((s) => String(s.url).includes('/webhook-test/'));
      expect((await subscriptions()).length === 0, 'no test subscription before');
      const answer = await testStep(ids.webhook);
      expect(answer?.waitingForWebhook === true, 'n8n waits for a webhook', answer);
      const [sub] = await waitFor(
        'the test URL to be subscribed',
        async () => {
          const subs = await subscriptions();
          return subs.length ? subs : undefined;
        },
        20000,
      );
      expect(sub.eventTypes.join() === 'supplierOrder.paused' && sub.enabled === true, 'subscribed to supplierOrder.paused', sub);
      const listed = await rest('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: ids.webhook }))}`);
      const known = new Set((listed.json?.data?.results ?? []).map((e) => e.id));
      const so = await submitPaused();
      const execution = await waitFor(
        'the run the test delivery starts',
        async () => {
          const res = await rest('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: ids.webhook }))}`);
          return (res.json?.data?.results ?? []).find((e) => !known.has(e.id));
        },
        30000,
        500,
      );
      const items = await triggerOutput(execution.id);
      expect(
        items.length === 1 && items[0].type === 'supplierOrder.paused' && items[0].data?._id === so._id && items[0].storeId === storeId,
        'the trigger put out the delivered event',
        items,
      );
      await waitFor('the test subscription to be deleted once the test event came', async () => (await subscriptions()).length === 0, 20000);
    },
  );
}
