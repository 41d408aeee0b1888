/**
 * Plans and credits are the operator's (docs/decisions.md, "Operator billing"): no merchant route changes them,
 * the operator API needs the operator token and does not exist without one, and the CLI does the same actions.
 */
import crypto from 'node:crypto';
import {
  createKey,
  createStore,
  Developer,
  leakScanTest,
  newDeveloper,
  operatorOf,
  runCli,
  seen,
  Service,
  startService,
  TEST_OPERATOR_TOKEN,
} from '../support/harness';

interface Operation {
  operationId: string;
  method: string;
  path: string;
  security: Array<Record<string, string[]>>;
  planGated: boolean;
  hasBody: boolean;
}

let svc: Service;
let doc: any;
let ops: Operation[];

const isOperator = (op: Operation) => op.security.some((s) => 'operatorToken' in s);
/** Bodies that make a conditionally gated route's gate apply. */
const GATING_BODIES: Record<string, unknown> = {
  setSupplierConnectionEnabled: { enabled: true },
  updateProductLink: { variants: [{ storeVariantId: '00000000-0000-4000-8000-000000000000', supplierVariantId: 'SBX-V1' }] },
};
const asOperator = (token = TEST_OPERATOR_TOKEN) => ({ 'X-Operator-Token': token });

beforeAll(async () => {
  svc = await startService({ label: 'operator' });
  doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  ops = [];
  for (const [p, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: p,
        security: op.security,
        planGated: !!op['x-plan-gated'],
        hasBody: !!op.requestBody,
      });
    }
  }
});

afterAll(async () => {
  await svc.stop();
});

test('the merchant routes that changed a plan or added credits are gone', async () => {
  const dev = await newDeveloper(svc);
  expect((await svc.call('PUT', '/api/account/plan', { session: dev.session, body: { plan: 'pro' } })).status).toBe(404);
  expect((await svc.call('POST', '/api/account/credits', { session: dev.session, body: { amount: 1000 } })).status).toBe(404);
  expect(ops.map((o) => o.operationId)).not.toEqual(expect.arrayContaining(['changePlan']));
  expect(ops.map((o) => o.operationId)).not.toContain('buyCredits');
});

/** Path parameters for the walk: the free account's own store and records, random ids for the rest. */
function urlOf(op: Operation, ids: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? crypto.randomUUID()));
}

/** Bodies that ask for more: a plan, credits, a grant, and each of those alone (a route takes whichever it knows). */
const ESCALATIONS = [
  { plan: 'business', amount: 1_000_000, credits: 1_000_000, reason: 'free upgrade' },
  { plan: 'pro' },
  { amount: 1_000_000 },
  { credits: 1_000_000 },
  { amount: 1_000_000, reason: 'gift' },
  {},
];

test('a free account cannot become Pro, gain credits or reach a Pro-only operation by any merchant route (every route of the table, with a session and with a key)', async () => {
  const free = await newDeveloper(svc);
  const storeId = await createStore(svc, free.key);
  const product = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: free.key,
    body: { title: 'Mug', variants: [{ sku: 'MUG-1', title: 'Default', priceMinor: 1200, currency: 'USD', stock: 3 }] },
  });
  expect(product.status).toBe(201);
  // A second key for the key routes to rename and revoke, so the walk keeps its own key and session.
  const spare = await createKey(svc, free.session, 'spare', 'own');
  const ids = { storeId, productId: product.body.result.id, keyId: spare.id, accountId: free.accountId, supplierProductId: 'SBX-P00001', groupKey: 'store' };
  const start = (await svc.call('GET', '/api/account', { session: free.session })).body.result;
  expect(start.plan).toBe('free');

  // Signing out ends the walk's session, so it goes last.
  const merchantOps = ops.filter((o) => !isOperator(o)).sort((a, b) => Number(a.operationId === 'signOut') - Number(b.operationId === 'signOut'));
  expect(merchantOps.length).toBeGreaterThan(40);
  let calls = 0;
  for (const op of merchantOps) {
    for (const auth of [{ session: free.session }, { key: free.key }]) {
      for (const body of op.hasBody ? ESCALATIONS : [undefined]) {
        const res = await svc.call(op.method, urlOf(op, ids), { ...auth, body });
        expect([op.operationId, res.status < 500]).toEqual([op.operationId, true]);
        calls += 1;
      }
    }
  }
  expect(calls).toBeGreaterThan(200);

  expect((await svc.call('GET', '/api/api-key/current', { key: free.key })).body.result.plan).toEqual({ name: 'free', includesDropshipping: false });
  const session = (await svc.call('POST', '/api/auth/sign-in', { body: { email: free.email, password: free.password } })).body.result.sessionToken;
  seen.secrets.add(session);
  const end = (await svc.call('GET', '/api/account', { session })).body.result;
  expect(end.plan).toBe('free');
  expect(end.credits).toBeLessThanOrEqual(start.credits);
  // The only credits that ever came in: the sign-up grant and refunds of failed charges.
  const incoming = await svc.db.query(`SELECT action FROM credit_ledger WHERE account_id = $1 AND amount > 0`, [free.accountId]);
  expect(incoming.rows.map((r) => r.action).filter((a: string) => a !== 'signUp.grant' && !a.endsWith('.refund'))).toEqual([]);
  for (const op of ops.filter((o) => o.planGated)) {
    // Opening a supplier sign-in is a signed-in person's step (a key is refused before the plan is looked at).
    const auth = op.security.some((s) => 'apiKey' in s) ? { key: free.key } : { session };
    const res = await svc.call(op.method, urlOf(op, ids), { ...auth, body: GATING_BODIES[op.operationId] ?? (op.hasBody ? {} : undefined) });
    expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, 403, 'planRequired']);
  }
});

test('the operator API: a missing or wrong token is 401; with the token, find by e-mail, set a plan, grant credits with the reason in the ledger', async () => {
  const dev = await newDeveloper(svc);
  const opRoutes = ops.filter(isOperator);
  expect(opRoutes.map((o) => o.operationId).sort()).toEqual([
    'operatorFindAccount',
    'operatorGetExchangeRate',
    'operatorGrantCredits',
    'operatorPinExchangeRate',
    'operatorSetPlan',
    'operatorUnpinExchangeRate',
  ]);
  for (const op of opRoutes) {
    for (const headers of [{}, asOperator('sso_wrong-token-'.padEnd(48, 'w')), { 'X-API-Key': dev.key }, { Authorization: `Bearer ${dev.session}` }]) {
      const res = await svc.call(op.method, urlOf(op, { accountId: dev.accountId }) + (op.method === 'GET' ? `?email=${encodeURIComponent(dev.email)}` : ''), {
        headers,
        body: op.hasBody ? { plan: 'pro', amount: 5, reason: 'x' } : undefined,
      });
      expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, 401, 'unauthenticated']);
    }
  }
  const found = await svc.call('GET', `/api/operator/accounts?email=${encodeURIComponent(dev.email.toUpperCase())}`, { headers: asOperator() });
  expect(found.body.result).toMatchObject({ id: dev.accountId, plan: 'free', credits: 100 });
  expect((await svc.call('GET', '/api/operator/accounts?email=nobody@example.test', { headers: asOperator() })).status).toBe(404);

  const plan = await svc.call('PUT', `/api/operator/accounts/${dev.accountId}/plan`, { headers: asOperator(), body: { plan: 'pro' } });
  expect(plan.status).toBe(200);
  expect(plan.body.result).toMatchObject({ plan: 'pro', includesDropshipping: true });
  expect((await svc.call('GET', '/api/api-key/current', { key: dev.key })).body.result.plan).toEqual({ name: 'pro', includesDropshipping: true });

  const noReason = await svc.call('POST', `/api/operator/accounts/${dev.accountId}/credits`, { headers: asOperator(), body: { amount: 50 } });
  expect([noReason.status, noReason.body.error.code]).toEqual([400, 'validationFailed']);
  const grant = await svc.call('POST', `/api/operator/accounts/${dev.accountId}/credits`, {
    headers: asOperator(),
    body: { amount: 250, reason: 'Invoice 2026-0042 paid' },
  });
  expect(grant.status).toBe(200);
  expect(grant.body.result.credits).toBe(350);
  const ledger = (await svc.call('GET', '/api/account/credits/ledger', { session: dev.session })).body.result;
  expect(ledger[0]).toMatchObject({
    action: 'operator.grant',
    amount: 250,
    balanceAfter: 350,
    reason: 'Invoice 2026-0042 paid',
    requestId: grant.headers.get('x-request-id'),
  });
  expect((await svc.call('PUT', `/api/operator/accounts/${crypto.randomUUID()}/plan`, { headers: asOperator(), body: { plan: 'pro' } })).status).toBe(404);
});

test('the OpenAPI document shows the operator routes with their own security scheme; the assistant offers none of them', async () => {
  expect(doc.components.securitySchemes.operatorToken).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Operator-Token' }));
  for (const op of ops.filter((o) => o.path.startsWith('/api/operator/'))) expect(op.security).toEqual([{ operatorToken: [] }]);
  const tools = await svc.call('POST', '/api/mcp', {
    key: (await newDeveloper(svc)).key,
    headers: { Accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  });
  expect(tools.status).toBe(200);
  expect(tools.text).toContain('listSupplierOrders');
  expect(tools.text).not.toMatch(/operator/i);
});

test('the CLI: account, set-plan and grant-credits (with its reason in the ledger); a grant without a reason is refused', async () => {
  const dev: Developer = await newDeveloper(svc);
  expect(JSON.parse(runCli(svc, 'account', dev.email))).toMatchObject({ id: dev.accountId, plan: 'free' });
  expect(JSON.parse(runCli(svc, 'set-plan', dev.email, 'business'))).toMatchObject({ plan: 'business' });
  expect(JSON.parse(runCli(svc, 'grant-credits', dev.email, '40', '--reason', 'Support ticket 17'))).toMatchObject({ credits: 140 });
  const [row] = (
    await svc.db.query(`SELECT action, amount, reason, request_id FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT 1`, [dev.accountId])
  ).rows;
  expect(row).toEqual({ action: 'operator.grant', amount: 40, reason: 'Support ticket 17', request_id: null });
  expect(() => runCli(svc, 'grant-credits', dev.email, '40')).toThrow(/--reason/);
  expect(() => runCli(svc, 'set-plan', dev.email, 'platinum')).toThrow(/Usage: set-plan/);
  expect(() => runCli(svc, 'account', 'nobody@example.test')).toThrow(/not found/);
  expect((await operatorOf(svc).find(dev.email)).credits).toBe(140);
});

test('without an operator token configured, every operator route answers 404, exactly as an unknown path', async () => {
  const off = await startService({ label: 'operator-off', env: { OPERATOR_TOKEN: '' } });
  try {
    const unknown = await off.call('GET', '/api/no-such-route');
    for (const op of ops.filter(isOperator)) {
      for (const headers of [{}, asOperator(), asOperator('')]) {
        const res = await off.call(op.method, urlOf(op, {}), { headers, body: op.hasBody ? { plan: 'pro', amount: 5, reason: 'x' } : undefined });
        expect([op.operationId, res.status, res.body.error.code, res.body.error.message]).toEqual([
          op.operationId,
          404,
          'notFound',
          unknown.body.error.message,
        ]);
      }
    }
    // Metrics take the operator token too: without one they are not served at all.
    for (const headers of [{}, asOperator(), { Authorization: `Bearer ${TEST_OPERATOR_TOKEN}` }]) {
      const res = await off.call('GET', '/metrics', { headers });
      expect([res.status, res.body.error.message]).toEqual([404, unknown.body.error.message]);
    }
  } finally {
    await off.stop();
  }
});

test('a short operator token is refused at start, naming the variable', async () => {
  await expect(startService({ label: 'operator-short', env: { OPERATOR_TOKEN: 'short' } })).rejects.toThrow(/OPERATOR_TOKEN/);
  seen.secrets.add('sso_wrong-token-'.padEnd(48, 'w'));
});

leakScanTest();
