/** `npm pack` of client/ installs into a fresh project and runs the snippet, as ESM, as CommonJS and from TypeScript. */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, Shop } from '../support/orders';
import { StoreClient } from './support';

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
let project: string;
let tarball: string;
let orders: Array<{ id: string }>;

beforeAll(async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'client-pack-'));
  // dist/ was built by `npm test`; --ignore-scripts keeps prepack from rebuilding it under other running tests.
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: path.join(root, 'client'), encoding: 'utf8' }),
  );
  tarball = path.join(work, packed[0].filename);
  project = path.join(work, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', version: '1.0.0', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  // The service after the slow install: an idle keep-alive connection would otherwise be closed under the harness.
  sandbox = await startSandbox();
  svc = await startService({ label: 'client_package', sandbox });
  shop = await openShop(svc, sandbox, { page: 13, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } });
  // Orders are placed now: after a slow child process an idle keep-alive socket of the harness may be closed.
  orders = [await placeOrder(svc, shop), await placeOrder(svc, shop)];
}, 180_000); // npm pack and an install of the tarball, on a busy machine
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
  fs.rmSync(path.dirname(project), { recursive: true, force: true });
});

const SNIPPET = (importLine: string) => `${importLine}
const { STORE_ID: storeId, ORDER_ID: orderId, GROUP_KEY: groupKey } = process.env;
const store = new StoreClient({ apiKey: process.env.STORE_API_KEY, baseUrl: process.env.BASE_URL });
async function main() {
  const page = await store.suppliers.orders.list(storeId, { needsReview: true, pageSize: 50 });
  const failed = [];
  for await (const so of store.suppliers.orders.iterate(storeId, { status: 'failed' })) failed.push(so._id);
  let paused = null;
  let so;
  try {
    so = await store.suppliers.orders.submit(storeId, orderId, groupKey, { payNow: true });
  } catch (err) {
    if (!(err instanceof SupplierOrderPausedError)) throw err;
    paused = { reason: err.reviewReason, retryable: err.retryable, id: err.supplierOrder._id };
    so = await store.suppliers.orders.retry(storeId, err.supplierOrder._id, { acceptCost: true });
  }
  console.log(JSON.stringify({ pageSize: page.pagination.pageSize, failed, paused, after: { id: so._id, status: so.status, reviewReason: so.reviewReason } }));
}
main().catch((err) => { console.error(String(err)); process.exit(1); });
`;

/** Async on purpose: a blocked test process would stop reading the service's log pipe and stall the service. */
async function run(file: string, order: { id: string }) {
  const { stdout: out } = await execFileAsync(process.execPath, [file], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, STORE_API_KEY: shop.owner.key, BASE_URL: svc.baseUrl, STORE_ID: shop.storeId, ORDER_ID: order.id, GROUP_KEY: partKeyOf(shop) },
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

test('the tarball holds the ESM and CommonJS builds with declarations, a licence and a readme, and no runtime dependencies', () => {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const f of [
    'package/dist/esm/index.js',
    'package/dist/esm/index.d.ts',
    'package/dist/cjs/index.js',
    'package/dist/cjs/index.d.ts',
    'package/README.md',
    'package/LICENSE',
  ])
    expect(listing).toContain(f);
  expect(listing.filter((f) => f.includes('/src/') || f.includes('/scripts/'))).toEqual([]);
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/@store-suppliers/client/package.json'), 'utf8'));
  expect(manifest).toMatchObject({ name: '@store-suppliers/client', version: '4.3.0', license: 'MIT', engines: { node: '>=20' } });
  expect(manifest.dependencies ?? {}).toEqual({});
  expect(fs.readdirSync(path.join(project, 'node_modules'))).toEqual(['.package-lock.json', '@store-suppliers']);
});

test('the snippet runs as an ES module: list, iterate, a paused submit thrown, a retry with acceptCost returned', async () => {
  const order = orders[0];
  fs.writeFileSync(path.join(project, 'snippet.mjs'), SNIPPET("import { StoreClient, SupplierOrderPausedError } from '@store-suppliers/client';"));
  const out = await run('snippet.mjs', order);
  expect(out).toMatchObject({
    pageSize: 50,
    failed: [],
    paused: { reason: 'costAboveLimit', retryable: false },
    after: { id: out.paused.id, reviewReason: null },
  });
  expect(['submitted', 'confirmed']).toContain(out.after.status);
  // Read back with the client itself: a read is retried if an idle connection was closed meanwhile.
  const so = await new StoreClient({ apiKey: shop.owner.key, baseUrl: svc.baseUrl }).suppliers.orders.get(shop.storeId, out.paused.id);
  expect(so.events.some((e) => e.type === 'retry' && e.details.acceptCost === true)).toBe(true);
});

test('the same snippet runs through require() (CommonJS)', async () => {
  const order = orders[1];
  fs.writeFileSync(path.join(project, 'snippet.cjs'), SNIPPET("const { StoreClient, SupplierOrderPausedError } = require('@store-suppliers/client');"));
  const out = await run('snippet.cjs', order);
  expect(out).toMatchObject({ paused: { reason: 'costAboveLimit' }, after: { reviewReason: null } });
});

test('a TypeScript project type-checks against the package declarations, ESM and CommonJS', async () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const source = `import { StoreClient, SupplierOrderPausedError, type SupplierOrder } from '@store-suppliers/client';
export async function first(storeId: string): Promise<SupplierOrder | undefined> {
  const store = new StoreClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
  const page = await store.suppliers.orders.list(storeId, { needsReview: true, pageSize: 50 });
  const reason: SupplierOrderPausedError['reviewReason'] = 'costChanged';
  void reason;
  return page.items[0];
}
`;
  fs.writeFileSync(path.join(project, 'check.mts'), source);
  fs.writeFileSync(path.join(project, 'check.cts'), source);
  // A wrong field must fail, or this check proves nothing.
  fs.writeFileSync(
    path.join(project, 'wrong.mts'),
    `import { StoreClient } from '@store-suppliers/client';\nnew StoreClient({ apiKey: 'k', baseUrl: 'x' }).suppliers.orders.list('s', { needsReveiw: true });\n`,
  );
  const tscArgs = [
    '--noEmit',
    '--strict',
    '--module',
    'node16',
    '--moduleResolution',
    'node16',
    '--target',
    'es2022',
    '--types',
    'node',
    '--typeRoots',
    path.join(root, 'node_modules/@types'),
  ];
  await execFileAsync(process.execPath, [tsc, ...tscArgs, 'check.mts', 'check.cts'], { cwd: project, encoding: 'utf8' });
  let wrong = '';
  try {
    await execFileAsync(process.execPath, [tsc, ...tscArgs, 'wrong.mts'], { cwd: project, encoding: 'utf8' });
  } catch (err) {
    wrong = String((err as { stdout?: string }).stdout);
  }
  expect(wrong).toContain('needsReveiw');
}, 180000);

leakScanTest();
