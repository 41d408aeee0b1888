import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { leakScanTest, newDeveloper, Service, startService } from '../support/harness';

let svc: Service;
let doc: any;

beforeAll(async () => {
  svc = await startService({ label: 'openapi' });
  await newDeveloper(svc);
  const res = await svc.call('GET', '/api/store-suppliers/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => {
  await svc.stop();
});

test('the document is valid OpenAPI 3.1 according to an independent validator', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oas-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const cli = path.resolve(__dirname, '../../node_modules/@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
  const out = execFileSync(process.execPath, [cli, file], { encoding: 'utf8' });
  const result = JSON.parse(out);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);

  // The same validator refuses a broken document, so the check above can fail.
  const broken = { ...doc, paths: { '/x': { get: { responses: { '200': { content: 'nope' } } } } } };
  fs.writeFileSync(file, JSON.stringify(broken));
  let brokenOut = '';
  try {
    brokenOut = execFileSync(process.execPath, [cli, file], { encoding: 'utf8' });
  } catch (e) {
    brokenOut = String((e as { stdout?: string }).stdout ?? '');
  }
  expect(JSON.parse(brokenOut).valid).toBe(false);
});

test('every operation has an id, a summary, a success answer and error answers', () => {
  const ids = new Set<string>();
  for (const [p, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      expect([p, method, typeof op.operationId, typeof op.summary]).toEqual([p, method, 'string', 'string']);
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
      expect(statuses).toContain('400');
      if (op.security.length) expect(statuses).toContain('401');
      // Any route answers 503 while the database cannot be reached, with when to try again.
      expect([p, method, op.responses['503']?.headers?.['Retry-After']?.schema?.type]).toEqual([p, method, 'integer']);
    }
  }
});

test('documents the sign-in, key-management and key-check routes the spec leaves to us', () => {
  expect(doc.paths['/api/auth/sign-up'].post).toBeDefined();
  expect(doc.paths['/api/auth/sign-in'].post).toBeDefined();
  expect(doc.paths['/api/auth/sign-out'].post).toBeDefined();
  expect(doc.paths['/api/account/developer'].post).toBeDefined();
  expect(doc.paths['/api/api-keys'].post.security).toEqual([{ session: [] }]);
  expect(doc.paths['/api/api-keys/{keyId}'].delete).toBeDefined();
  expect(doc.paths['/api/api-key/current'].get.security).toEqual([{ apiKey: [] }, { session: [] }]);
  expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
});

test('permission, plan gate and credit price of each route are in the document', () => {
  const create = doc.paths['/api/store-products/{storeId}'].post;
  expect(create['x-permission']).toBe('products.manage');
  expect(create['x-credit-price']).toBeGreaterThan(0);
  expect(create.responses['402']).toBeDefined();
});

test('real answers of the server match the response schemas of the document', async () => {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  const check = (p: string, method: string, status: number, body: unknown) => {
    const schema = doc.paths[p][method].responses[String(status)].content['application/json'].schema;
    const validate = ajv.compile(schema);
    const ok = validate(body);
    expect([p, method, ok ? [] : validate.errors]).toEqual([p, method, []]);
  };
  const dev = await newDeveloper(svc, { plan: 'pro' });
  check('/api/api-key/current', 'get', 200, (await svc.call('GET', '/api/api-key/current', { key: dev.key })).body);
  const store = await svc.call('POST', '/api/stores', { key: dev.key, body: { name: 'S', currency: 'EUR' } });
  check('/api/stores', 'post', 201, store.body);
  const storeId = store.body.result.id;
  const created = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: dev.key,
    body: { title: 'T', variants: [{ sku: 'S1', title: 'V', priceMinor: 500, currency: 'EUR', stock: 2 }] },
  });
  check('/api/store-products/{storeId}', 'post', 201, created.body);
  check('/api/store-products/{storeId}', 'get', 200, (await svc.call('GET', `/api/store-products/${storeId}`, { key: dev.key })).body);
  check('/api/api-keys', 'get', 200, (await svc.call('GET', '/api/api-keys', { session: dev.session })).body);
  check('/api/stores', 'get', 200, (await svc.call('GET', '/api/stores', { key: dev.key })).body);
  // And a wrong body is caught by the same check.
  const validate = ajv.compile(doc.paths['/api/api-key/current'].get.responses['200'].content['application/json'].schema);
  expect(validate({ result: { key: {} } })).toBe(false);
});

leakScanTest();
