import { createStore, leakScanTest, newDeveloper, Developer, seen, Service, startService } from '../support/harness';

let svc: Service;
let dev: Developer;
let storeId: string;

beforeAll(async () => {
  svc = await startService({ label: 'httperr', env: { JSON_BODY_LIMIT: '16kb' } });
  dev = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, dev.key);
});
afterAll(async () => {
  await svc.stop();
});

const productPath = () => `/api/store-products/${storeId}`;
const variant = { sku: 'A-1', title: 'Default', priceMinor: 100, currency: 'USD', stock: 1 };

test('malformed JSON: 400 malformedJson', async () => {
  const res = await svc.call('POST', productPath(), { key: dev.key, rawBody: '{"title": "x",', headers: { 'Content-Type': 'application/json' } });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('malformedJson');
});

test('a JSON body that is not an object (strict JSON): 400', async () => {
  const res = await svc.call('POST', productPath(), { key: dev.key, rawBody: '"just a string"', headers: { 'Content-Type': 'application/json' } });
  expect(res.status).toBe(400);
  expect(['malformedJson', 'validationFailed']).toContain(res.body.error.code);
});

test('wrong types and unknown fields: 400 validationFailed with a detail per field', async () => {
  const res = await svc.call('POST', productPath(), {
    key: dev.key,
    body: { title: 42, colour: 'red', variants: [{ ...variant, priceMinor: 1.5, stock: -1 }] },
  });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('validationFailed');
  const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
  expect(fields).toEqual(['body/colour', 'body/title', 'body/variants/0/priceMinor', 'body/variants/0/stock'].sort());
});

test('missing required fields are named', async () => {
  const res = await svc.call('POST', productPath(), { key: dev.key, body: {} });
  expect(res.status).toBe(400);
  expect(res.body.error.details).toEqual(
    expect.arrayContaining([
      { field: 'body/title', message: 'is required' },
      { field: 'body/variants', message: 'is required' },
    ]),
  );
});

test('bad query values and unknown query fields: 400 validationFailed', async () => {
  const big = await svc.call('GET', `${productPath()}?pageSize=500`, { key: dev.key });
  expect(big.status).toBe(400);
  expect(big.body.error.details[0].field).toBe('query/pageSize');
  const unknown = await svc.call('GET', `${productPath()}?colour=red`, { key: dev.key });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.details[0].field).toBe('query/colour');
});

test('a malformed id in the path: 400 validationFailed, never 500', async () => {
  const res = await svc.call('GET', `/api/store-products/not-a-uuid`, { key: dev.key });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('validationFailed');
  expect(res.body.error.details[0].field).toBe('params/storeId');
});

test('an oversized body: 413 payloadTooLarge, and nothing written', async () => {
  const res = await svc.call('POST', productPath(), { key: dev.key, body: { title: 'x', description: 'y'.repeat(40_000), variants: [variant] } });
  expect(res.status).toBe(413);
  expect(res.body.error.code).toBe('payloadTooLarge');
  const { rows } = await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId]);
  expect(rows[0].n).toBe(0);
});

test('a non-JSON body: 415 unsupportedMediaType', async () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const res = await svc.call('POST', productPath(), { key: dev.key, rawBody: 'title=x', headers: { 'Content-Type': type } });
    expect([type, res.status, res.body.error.code]).toEqual([type, 415, 'unsupportedMediaType']);
  }
});

test('unknown routes answer 404 notFound and wrong methods 405 methodNotAllowed, both as JSON', async () => {
  const missing = await svc.call('GET', '/api/nothing-here', { key: dev.key });
  expect(missing.status).toBe(404);
  expect(missing.body.error.code).toBe('notFound');
  const wrong = await svc.call('PATCH', '/api/api-key/current', { key: dev.key });
  expect(wrong.status).toBe(405);
  expect(wrong.body.error.code).toBe('methodNotAllowed');
});

test('every answer carries a request id; a given one is echoed', async () => {
  const res = await svc.call('GET', '/api/api-key/current', { key: dev.key, headers: { 'X-Request-Id': 'abc-123' } });
  expect(res.headers.get('x-request-id')).toBe('abc-123');
  const logged = await svc.waitForLog((l) => l.requestId === 'abc-123' && l.msg === 'request');
  expect(logged).toMatchObject({ status: 200, route: '/api/api-key/current' });
});

test('healthz and readyz answer anyone', async () => {
  expect((await svc.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
  expect((await svc.call('GET', '/readyz')).body).toEqual({ status: 'ready' });
});

test('metrics answer only the operator token, as X-Operator-Token or as a bearer token (what scrapers send)', async () => {
  const wrong = 'sso_not-the-operator-token-'.padEnd(48, 'n');
  seen.secrets.add(wrong);
  for (const headers of [
    {},
    { 'X-Operator-Token': wrong },
    { Authorization: `Bearer ${wrong}` },
    { 'X-API-Key': dev.key },
    { Authorization: `Bearer ${dev.session}` },
    { 'X-Operator-Token': '' },
  ]) {
    const res = await svc.call('GET', '/metrics', { headers });
    expect([Object.keys(headers).join(), res.status, res.body?.error?.code]).toEqual([Object.keys(headers).join(), 401, 'unauthenticated']);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(res.text).not.toContain('http_requests_total');
  }
  for (const headers of [{ 'X-Operator-Token': svc.operatorToken }, { Authorization: `Bearer ${svc.operatorToken}` }]) {
    const metrics = await fetch(`${svc.baseUrl}/metrics`, { headers });
    const text = await metrics.text();
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/api-key\/current",status="200"\} \d+/);
    expect(text).toContain('process_cpu_seconds_total');
    // Refused scrapes are counted too, under the route's own name.
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/metrics",status="401"\} [1-9]/);
  }
});

test('log lines are JSON with a request id and never carry the key header', async () => {
  await svc.call('GET', '/api/api-key/current', { key: dev.key, headers: { 'X-Request-Id': 'log-check' } });
  const line = await svc.waitForLog((l) => l.requestId === 'log-check');
  expect(line.level).toBe(30);
  expect(JSON.stringify(svc.logs)).not.toContain(dev.key);
});

leakScanTest();
