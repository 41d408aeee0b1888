/**
 * The .NET client's generated code (dotnet/src/StoreSuppliers.Client/Generated) is what the served OpenAPI
 * document gives; it fails when the route table moved on. Also the rule that picks the routes a store client
 * exposes, and the library's README listing every service and method.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { leakScanTest, newDeveloper, Service, startService } from '../support/harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { emitCSharp } = require('../../dotnet/scripts/emit-csharp.cjs') as {
  emitCSharp(doc: unknown): Record<string, string> & { operations: Array<{ operationId: string; service: string; method: string; autoPaging: string | null }> };
};

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const generated = path.join(root, 'dotnet/src/StoreSuppliers.Client/Generated');
const FILES = ['Models.g.cs', 'Services.g.cs', 'StoreJsonContext.g.cs'];
let svc: Service;
let served: any;

beforeAll(async () => {
  svc = await startService({ label: 'dotnet_generated' });
  await newDeveloper(svc);
  const res = await svc.call('GET', '/api/store-suppliers/openapi.json');
  expect(res.status).toBe(200);
  served = res.body;
});
afterAll(async () => {
  await svc.stop();
});

test('the checked-in C# is exactly what the served document generates (run `npm run generate:dotnet` if not)', () => {
  const emitted = emitCSharp(served);
  // Currencies.g.cs comes from the service's ISO 4217 table, not the document (test/client/money.test.ts checks it).
  expect(fs.readdirSync(generated).sort()).toEqual([...FILES, 'Currencies.g.cs'].sort());
  for (const file of FILES) expect(emitted[file]).toBe(fs.readFileSync(path.join(generated, file), 'utf8'));
});

test('the generator builds the same document in-process from the route table, and --check agrees', async () => {
  const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(root, 'dotnet/scripts/generate.cjs'), '--check'], { encoding: 'utf8' });
  expect([stdout, stderr]).toEqual(['', '']);
});

test('a changed schema changes the generated code, so drift cannot pass unseen', () => {
  const changed = structuredClone(served);
  changed.paths['/api/store-suppliers/{storeId}/orders'].get.parameters.push({ name: 'newFilter', in: 'query', required: false, schema: { type: 'string' } });
  const order = changed.paths['/api/store-suppliers/{storeId}/orders/{supplierOrderId}'].get.responses['200'].content['application/json'].schema.properties.result;
  order.properties.warehouseNote = { type: ['string', 'null'] };
  const emitted = emitCSharp(changed);
  expect(emitted['Models.g.cs']).not.toBe(fs.readFileSync(path.join(generated, 'Models.g.cs'), 'utf8'));
  expect(emitted['Models.g.cs']).toContain('public string? NewFilter { get; set; }');
  expect(emitted['Models.g.cs']).toContain('public string? WarehouseNote { get; set; }');
});

test('exposed: every route a key may call, by its tag; not operator, notification or session-only routes', () => {
  const doc = structuredClone(served);
  const op = (operationId: string, tag: string, security: unknown[]) => ({
    operationId,
    summary: operationId,
    tags: [tag],
    security,
    parameters: [{ name: 'storeId', in: 'path', required: true, schema: { type: 'string' } }],
    responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { result: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } }, required: ['result'] } } } } },
  });
  doc.paths['/api/operator/accounts/{storeId}/plan'] = { put: op('setAccountPlan', 'Operator', [{ operatorToken: [] }]) };
  doc.paths['/api/payment-notifications/{storeId}'] = { post: op('receivePaymentNotification', 'Payment notifications', []) };
  doc.paths['/api/store-suppliers/{storeId}/audit-entries'] = { get: op('listAuditEntries', 'Audit entries', [{ apiKey: [] }, { session: [] }]) };
  const emitted = emitCSharp(doc);
  const ids = emitted.operations.map((o) => o.operationId);
  expect(ids).not.toContain('setAccountPlan');
  expect(ids).not.toContain('receivePaymentNotification');
  expect(emitted.operations.find((o) => o.operationId === 'listAuditEntries')).toEqual({ operationId: 'listAuditEntries', service: 'Suppliers.AuditEntries', method: 'ListAsync', autoPaging: null });
  expect(emitted['Services.g.cs']).toContain('public AuditEntriesService AuditEntries { get; }');

  // The served table: every operation a key may call is there, and nothing else.
  const byKey: string[] = [];
  const others: string[] = [];
  for (const methods of Object.values(served.paths as Record<string, Record<string, any>>)) {
    for (const o of Object.values(methods)) ((o.security ?? []).some((s: object) => 'apiKey' in s) ? byKey : others).push(o.operationId);
  }
  const exposed = emitCSharp(served).operations.map((o) => o.operationId);
  expect([...exposed].sort()).toEqual([...byKey].sort());
  for (const id of ['receiveSupplierNotification', 'createApiKey', 'revokeApiKey', 'completeSupplierSignIn', 'signIn']) expect(others).toContain(id);
});

test('the methods the spec names are where it puts them, with auto-paging on cursor lists', () => {
  const ops = Object.fromEntries(emitCSharp(served).operations.map((o) => [o.operationId, o]));
  expect(ops.getCurrentApiKey).toMatchObject({ service: 'ApiKey', method: 'GetCurrentAsync' });
  expect(ops.listSupplierOrders).toMatchObject({ service: 'Suppliers.Orders', method: 'ListAsync', autoPaging: 'ListAutoPagingAsync' });
  for (const [id, method] of [['submitOrderPart', 'SubmitAsync'], ['retrySupplierOrder', 'RetryAsync'], ['paySupplierOrder', 'PayAsync']]) expect(ops[id]).toMatchObject({ service: 'Suppliers.Orders', method });
  expect(Object.values(ops).map((o) => o.service.split('.').slice(0, 2).join('.'))).toEqual(expect.arrayContaining(['Suppliers.Connections', 'Suppliers.Products', 'Suppliers.Imports', 'Suppliers.Links', 'Suppliers.Orders']));
});

test('dotnet/README.md lists every service and method of the generated code', () => {
  const readme = fs.readFileSync(path.join(root, 'dotnet/README.md'), 'utf8');
  const missing: string[] = [];
  for (const o of emitCSharp(served).operations) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`store.${o.service}\` |`));
    for (const m of [o.method, o.autoPaging]) if (m && !(row ?? '').includes(`\`${m}\``)) missing.push(`store.${o.service}.${m}`);
  }
  expect(missing).toEqual([]);
});

leakScanTest();
