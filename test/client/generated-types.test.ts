/** client/src/generated/api.ts is what the served OpenAPI document gives; it fails when the route table moved on. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { leakScanTest, newDeveloper, Service, startService } from '../support/harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { emitTypes } = require('../../client/scripts/emit-types.cjs') as { emitTypes(doc: unknown): string };

// Child processes run async: a blocked test process stops reading the service's log pipe.
const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const checkedIn = path.join(root, 'client/src/generated/api.ts');
let svc: Service;
let served: any;

beforeAll(async () => {
  svc = await startService({ label: 'client_types' });
  await newDeveloper(svc);
  const res = await svc.call('GET', '/api/store-suppliers/openapi.json');
  expect(res.status).toBe(200);
  served = res.body;
});
afterAll(async () => {
  await svc.stop();
});

test('the checked-in types are exactly what the served document generates (run `npm run generate:client` if not)', () => {
  expect(emitTypes(served)).toBe(fs.readFileSync(checkedIn, 'utf8'));
});

test('the generator script builds the same document in-process from the route table, and --check agrees', async () => {
  const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(root, 'client/scripts/generate-types.cjs'), '--check'], { encoding: 'utf8' });
  expect([stdout, stderr]).toEqual(['', '']);
});

test('a changed schema in the document changes the generated text, so drift cannot pass unseen', () => {
  const changed = structuredClone(served);
  const list = changed.paths['/api/store-suppliers/{storeId}/orders'].get;
  list.parameters.push({ name: 'newFilter', in: 'query', required: false, schema: { type: 'string' } });
  const text = emitTypes(changed);
  expect(text).not.toBe(fs.readFileSync(checkedIn, 'utf8'));
  expect(text).toContain('newFilter?: string;');
});

test('every supplier route of the document has a method of the client', () => {
  const clientSource = fs
    .readdirSync(path.join(root, 'client/src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('generated'))
    .map((f) => fs.readFileSync(path.join(root, 'client/src', f), 'utf8'))
    .join('\n');
  const missing: string[] = [];
  for (const [p, methods] of Object.entries(served.paths as Record<string, Record<string, any>>)) {
    const wanted =
      p.startsWith('/api/store-suppliers/{storeId}') ||
      p.startsWith('/api/store-orders/{storeId}/{orderId}') ||
      p === '/api/api-key/current' ||
      p === '/api/store-orders/{storeId}';
    for (const [method, op] of Object.entries(methods)) {
      // The client calls with a key: a signed-in person's step (opening a sign-in in their browser) is not its.
      if (!wanted || !(op.security ?? []).some((s: object) => 'apiKey' in s)) continue;
      // Routes of the store's own order handling that the spec does not give to developers' clients.
      if (['createStoreOrder', 'confirmStoreOrder', 'markStoreOrderPaid', 'shipStoreOrderPart', 'deliverStoreOrderPart'].includes(op.operationId)) continue;
      if (!clientSource.includes(`'${op.operationId}'`)) missing.push(`${method.toUpperCase()} ${p} (${op.operationId})`);
    }
  }
  expect(missing).toEqual([]);
});

test('the client tests type-check against the built declarations (the generated types are usable)', async () => {
  const tsc = require.resolve('typescript/bin/tsc');
  await execFileAsync(process.execPath, [tsc, '-p', path.join(root, 'test/client/tsconfig.json')], { encoding: 'utf8' });
});

leakScanTest();
