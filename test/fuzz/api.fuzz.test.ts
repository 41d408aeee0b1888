/**
 * Property: whatever arrives, for every operation of the OpenAPI document (and the health, metrics and assistant
 * routes beside it), the service answers below 500, in time, and is healthy afterwards. FUZZ_RUNS sets the number
 * of requests (npm test: 2,000; npm run fuzz: 20,000); FUZZ_SEED replays a run.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, Shop, submit } from '../support/orders';
import { hostileValue, wellShaped } from './arbitraries';
import { FuzzRequest, Ids, operationsOf, requestFor, send } from './requests';

const RUNS = Number(process.env.FUZZ_RUNS || 2000);
const SEED = Number(process.env.FUZZ_SEED || Date.now() % 2 ** 31);
const CLIENT_TIMEOUT_MS = 20_000;

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
let ids: Ids;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'fuzz', sandbox, publicBaseUrl: true, env: { CIRCUIT_FAILURE_THRESHOLD: '3' } });
  shop = await openShop(svc, sandbox, { products: 1 });
  const order = await placeOrder(svc, shop);
  const so = (await submit(svc, shop, order.id)).body.result;
  const spare = await svc.call('POST', '/api/auth/sign-in', { body: { email: shop.owner.email, password: shop.owner.password } });
  // The connection's notification address: its integration id carries the store, signed.
  const webhookUrl: string = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result[0].webhookUrl;
  ids = {
    key: shop.owner.key,
    session: shop.owner.session,
    spareSession: spare.body.result.sessionToken,
    byName: {
      storeId: [shop.storeId],
      id: [shop.connId],
      connectionId: [shop.connId],
      integrationId: [webhookUrl.slice(webhookUrl.lastIndexOf('/') + 1)],
      supplierKey: ['sandbox', 'cj'],
      productId: [shop.products[0].productId],
      variantId: [shop.products[0].variantId],
      storeVariantId: [shop.products[0].variantId],
      supplierProductId: [shop.products[0].supplierProductId],
      supplierVariantId: [shop.products[0].supplierVariantId],
      orderId: [order.id],
      supplierOrderId: [so._id],
      groupKey: [partKeyOf(shop), 'store'],
      keyId: [shop.owner.keyId],
      accountId: [shop.owner.accountId],
      currency: ['USD'],
      country: ['US'],
    },
  };
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
});

/** The routes beside the table: health, metrics, the document itself, and the assistant link's JSON-RPC. */
function besideTheTable(doc: any): fc.Arbitrary<FuzzRequest> {
  const opIds = operationsOf(doc).map((o) => o.operationId);
  const plain = fc
    .constantFrom('/healthz', '/readyz', '/metrics', '/api/store-suppliers/openapi.json', '/healthz/..', '/%2e%2e/healthz')
    .map((p): FuzzRequest => ({ op: `GET ${p}`, method: 'GET', path: p, headers: {} }));
  const rpc = fc
    .record({
      method: fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping'), hostileValue),
      name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...opIds) }, { weight: 1, arbitrary: hostileValue }),
      args: fc.oneof(
        wellShaped({ type: 'object', properties: { storeId: { type: 'string' }, id: { type: 'string' } } }, (n) => ids.byName[n] ?? []),
        hostileValue,
      ),
    })
    .map(({ method, name, args }): FuzzRequest => ({
      op: 'POST /api/mcp',
      method: 'POST',
      path: '/api/mcp',
      headers: { 'X-API-Key': ids.key, 'Content-Type': 'application/json', accept: 'application/json, text/event-stream' },
      body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { name, arguments: args } }) ?? 'null'),
    }));
  return fc.oneof(plain, rpc);
}

test(
  `${RUNS} hostile requests across every operation: no 5xx, no hang, healthy afterwards`,
  async () => {
    const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(50);
    const anyRequest = fc.oneof(...ops.map((op) => requestFor(op, ids)), besideTheTable(doc));
    const failures: Array<{ op: string; path: string; status: number | string; text: string }> = [];
    const perOp = new Map<string, number>();
    const byStatus = new Map<string, number>();
    let requests = 0;
    let fiveXX = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(anyRequest, async (req) => {
        const res = await send(svc.baseUrl, req, CLIENT_TIMEOUT_MS);
        requests++;
        perOp.set(req.op, (perOp.get(req.op) ?? 0) + 1);
        if (res.status === 'refused') refused++;
        const code = typeof res.status === 'number' ? `${res.status} ${/"code":"(\w+)"/.exec(res.text)?.[1] ?? ''}` : res.status;
        byStatus.set(code, (byStatus.get(code) ?? 0) + 1);
        if (res.status === 'timeout' || (typeof res.status === 'number' && res.status >= 500)) {
          if (res.status !== 'timeout') fiveXX++;
          if (failures.length < 20) failures.push({ op: req.op, path: req.path.slice(0, 200), status: res.status, text: res.text.slice(0, 300) });
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const summary = `${requests} requests, ${fiveXX} 5xx (${failures.length - fiveXX} timeouts, ${refused} connections cut, ${perOp.size} operations, seed ${SEED})`;
    process.stdout.write(`\nfuzz: ${summary}\n`);
    if (process.env.FUZZ_VERBOSE) process.stdout.write(`${JSON.stringify([...byStatus].sort((a, b) => b[1] - a[1]))}\n`);
    fs.mkdirSync(path.resolve('dist'), { recursive: true });
    fs.writeFileSync(path.resolve('dist/fuzz-summary.txt'), `${summary}\n`);

    expect(failures).toEqual([]);
    expect(requests).toBe(RUNS);
    // Every operation of the document was tried.
    for (const op of ops) expect([op.method, op.path, perOp.has(`${op.method} ${op.path}`)]).toEqual([op.method, op.path, true]);
    // Nothing reached the catch-all error handler.
    expect(svc.logs.filter((l) => l.msg === 'request failed')).toEqual([]);
  },
  30 * 60_000,
);

test('the service is healthy afterwards: health, a normal call, the circuit closed, nothing polluted', async () => {
  expect((await svc.call('GET', '/healthz')).status).toBe(200);
  expect((await svc.call('GET', '/readyz')).status).toBe(200);
  const list = await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key });
  expect(list.status).toBe(200);
  const conn = list.body.result.find((c: any) => c.id === shop.connId);
  expect(conn).toMatchObject({ isCircuitOpen: false, circuitOpenUntil: null });
  // No merchant route changes a plan or credits, so the run left the owner on pro.
  expect((await svc.call('GET', '/api/account', { session: shop.owner.session })).body.result.plan).toBe('pro');
  expect((await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}/enabled`, { key: shop.owner.key, body: { enabled: true } })).status).toBe(
    200,
  );
  const products = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products?pageSize=2`, { key: shop.owner.key });
  expect(products.status).toBe(200);
  expect(products.body.result.items.length).toBeGreaterThan(0);
  const account = await svc.call('GET', '/api/api-key/current', { key: shop.owner.key });
  expect(account.status).toBe(200);
  expect(account.text).not.toMatch(/polluted|isAdmin/);
});

leakScanTest();
