/**
 * A read-only metrics token (issue 40, item 5d), over real HTTP: `METRICS_TOKEN` serves `GET /metrics` as a Bearer
 * token and opens nothing else; the operator API refuses it (401 while the operator API exists, 404 when it does not),
 * so a scraper's credential can neither change a plan nor grant credits. The operator token still reads metrics.
 */
import { leakScanTest, newDeveloper, seen, Service, startService, TEST_OPERATOR_TOKEN } from '../support/harness';

const METRICS_TOKEN = 'mtr_test-metrics-token-'.padEnd(48, 'm');
seen.secrets.add(METRICS_TOKEN);

let svc: Service;

beforeAll(async () => {
  svc = await startService({ label: 'metrics_token', env: { METRICS_TOKEN } });
});
afterAll(async () => {
  await svc.stop();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('METRICS_TOKEN as a Bearer token reads /metrics; the operator token still does; none or a wrong one is 401', async () => {
  for (const headers of [bearer(METRICS_TOKEN), bearer(TEST_OPERATOR_TOKEN), { 'X-Operator-Token': TEST_OPERATOR_TOKEN }]) {
    const res = await svc.call('GET', '/metrics', { headers });
    expect(res.status).toBe(200);
    expect(res.text).toContain('# TYPE');
  }
  for (const headers of [{}, bearer(`${METRICS_TOKEN}x`), { 'X-Operator-Token': METRICS_TOKEN }]) {
    const res = await svc.call('GET', '/metrics', { headers });
    expect([res.status, res.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="metrics"']);
  }
});

test('attack: the metrics token cannot call the operator API: no plan changed, no credits granted (401)', async () => {
  const dev = await newDeveloper(svc);
  for (const headers of [{ 'X-Operator-Token': METRICS_TOKEN }, bearer(METRICS_TOKEN)]) {
    const plan = await svc.call('PUT', `/api/operator/accounts/${dev.accountId}/plan`, { headers, body: { plan: 'pro' } });
    expect([plan.status, plan.body.error?.code]).toEqual([401, 'unauthenticated']);
    const grant = await svc.call('POST', `/api/operator/accounts/${dev.accountId}/credits`, { headers, body: { amount: 250, reason: 'scraper' } });
    expect([grant.status, grant.body.error?.code]).toEqual([401, 'unauthenticated']);
    const find = await svc.call('GET', `/api/operator/accounts?email=${encodeURIComponent(dev.email)}`, { headers });
    expect(find.status).toBe(401);
  }
  const [row] = (await svc.db.query('SELECT plan, credits FROM accounts WHERE id = $1', [dev.accountId])).rows;
  expect(row.plan).not.toBe('pro');
  expect((await svc.db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND amount = 250`, [dev.accountId])).rows[0].n).toBe(0);
});

test('with METRICS_TOKEN and no operator token: metrics are served, the operator API does not exist (404)', async () => {
  const off = await startService({ label: 'metrics_only', env: { METRICS_TOKEN, OPERATOR_TOKEN: '' } });
  try {
    expect((await off.call('GET', '/metrics', { headers: bearer(METRICS_TOKEN) })).status).toBe(200);
    const dev = await newDeveloper(off);
    const plan = await off.call('PUT', `/api/operator/accounts/${dev.accountId}/plan`, {
      headers: { 'X-Operator-Token': METRICS_TOKEN },
      body: { plan: 'pro' },
    });
    expect([plan.status, plan.body.error?.code]).toEqual([404, 'notFound']);
  } finally {
    await off.stop();
  }
});

test('a METRICS_TOKEN too short, or the same as OPERATOR_TOKEN, is refused at start, naming the variable', async () => {
  await expect(startService({ label: 'metrics_short', env: { METRICS_TOKEN: 'short' } })).rejects.toThrow(/METRICS_TOKEN/);
  await expect(startService({ label: 'metrics_same', env: { METRICS_TOKEN: TEST_OPERATOR_TOKEN } })).rejects.toThrow(/METRICS_TOKEN/);
});

leakScanTest();
