/**
 * No credit lost to a kill (issue 40, item 7). Credits charged before a request's work are held: the work marks what
 * it spent in the transactions that do it, and the rest is refunded when the request ends, or, when its process was
 * killed, by a worker's sweep once the hold's lease lapses. Each kill here is a real SIGKILL of the API process at a
 * named failpoint; the account's balance (over HTTP) and its ledger must end as if the request had been charged for
 * what it did, and no more is refunded later. A request that finished is never refunded by the sweep, even one that
 * outlived its lease while running; and a process stalled (SIGSTOP) past its lease finds its hold refunded and does no
 * work unpaid when it wakes.
 */
import { createStore, Developer, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

// The shortest lease: a live request renews its hold every second; a dead one's is refunded within seconds.
const LEASE = { CREDIT_HOLD_LEASE_SECONDS: '3' };

let sandbox: Sandbox;
let api: Service;
let worker: Service | null = null;
const doomed: Service[] = [];
let owner: Developer;
let storeId: string;
let connId: string;
let sandboxAccount: string;
let catalogue: Array<{ id: string }>;

beforeAll(async () => {
  sandbox = await startSandbox();
  api = await startService({ label: 'credit-holds', sandbox, role: 'api', env: LEASE });
  owner = await newDeveloper(api, { plan: 'pro', credits: 1000 });
  storeId = await createStore(api, owner.key);
  const acc = await sandbox.account();
  sandboxAccount = acc.accountId;
  connId = (
    await api.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
  catalogue = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=3')).body.items;
}, 120000);
afterAll(async () => {
  for (const s of doomed) await s.stop('SIGKILL').catch(() => undefined);
  await worker?.stop();
  await api?.stop();
  await sandbox?.close();
});

const balance = async (): Promise<number> => {
  const res = await api.call('GET', '/api/api-key/current', { key: owner.key });
  expect(res.status).toBe(200);
  return res.body.result.credits.available;
};
const ledgerOf = async (requestId: string) =>
  (await api.db.query('SELECT action, amount FROM credit_ledger WHERE account_id = $1 AND request_id = $2 ORDER BY id', [owner.accountId, requestId])).rows;
const holds = async () =>
  (await api.db.query('SELECT request_id, units, units_spent FROM credit_holds WHERE account_id = $1 ORDER BY created_at', [owner.accountId])).rows;
const productsLinkedTo = async (ids: string[]) =>
  (await api.db.query('SELECT count(*)::int AS n FROM product_links WHERE store_id = $1 AND supplier_product_id = ANY($2::text[])', [storeId, ids])).rows[0]
    .n as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API process on the same database that SIGKILLs itself at `failpoint`. */
async function doomedApi(failpoint: string): Promise<Service> {
  const svc = await startService({ label: 'credit-holds', sandbox, databaseUrl: api.databaseUrl, role: 'api', env: { ...LEASE, FAILPOINTS: failpoint } });
  doomed.push(svc);
  return svc;
}

async function killedBy(svc: Service, send: () => Promise<unknown>): Promise<void> {
  await expect(send()).rejects.toThrow();
  await eventually(async () => (svc.proc.signalCode === 'SIGKILL' ? true : undefined), 20000, 'the API process killing itself');
}

/** A worker process started after the kill: its sweep is what refunds. */
async function startWorker(): Promise<Service> {
  worker ??= await startService({ label: 'credit-holds', sandbox, databaseUrl: api.databaseUrl, role: 'worker', env: LEASE });
  return worker;
}

test('killed half-way through an import of three products: the one made stays charged, the two never made are refunded once', async () => {
  const chosen = catalogue.slice(0, 3).map((p) => p.id);
  const before = await balance();
  const killer = await doomedApi('catalogue.importedOne');
  await killedBy(killer, () =>
    killer.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
      key: owner.key,
      body: { products: chosen.map((id) => ({ supplierProductId: id })) },
      headers: { 'X-Request-Id': 'killed-import' },
    }),
  );
  // Killed after the first product committed: all three charged, and nobody left to refund the two never made.
  expect(await productsLinkedTo(chosen)).toBe(1);
  expect(await balance()).toBe(before - 6);

  await startWorker();
  await eventually(async () => ((await balance()) === before - 2 ? true : undefined), 60000, 'the two products never made refunded');
  expect(await holds()).toEqual([]);
  expect(await ledgerOf('killed-import')).toEqual([
    { action: 'supplierProduct.import', amount: -6 },
    { action: 'supplierProduct.import.refund', amount: 4 },
  ]);
  // Later sweeps refund nothing more.
  await sleep(8000);
  expect(await balance()).toBe(before - 2);
  expect(await ledgerOf('killed-import')).toHaveLength(2);
  expect(await productsLinkedTo(chosen)).toBe(1);
}, 180000);

test('killed between the charge and the work: nothing was made, and the whole charge is refunded once', async () => {
  const before = await balance();
  const killer = await doomedApi('credits.held');
  await killedBy(killer, () =>
    killer.call('POST', `/api/store-products/${storeId}`, {
      key: owner.key,
      body: { title: 'Never made', variants: [{ sku: 'HOLD-NEVER-1', title: 'One', priceMinor: 1000, currency: 'USD', stock: 1 }] },
      headers: { 'X-Request-Id': 'killed-create' },
    }),
  );
  expect(await balance()).toBe(before - 1);
  await startWorker();
  await eventually(async () => ((await balance()) === before ? true : undefined), 60000, 'the credit refunded');
  expect(await holds()).toEqual([]);
  await sleep(8000);
  expect(await balance()).toBe(before);
  expect(await ledgerOf('killed-create')).toEqual([
    { action: 'storeProduct.create', amount: -1 },
    { action: 'storeProduct.create.refund', amount: 1 },
  ]);
  const made = await api.db.query(`SELECT count(*)::int AS n FROM store_variants WHERE store_id = $1 AND sku = 'HOLD-NEVER-1'`, [storeId]);
  expect(made.rows[0].n).toBe(0);
}, 180000);

test('a request that finished is not refunded by the sweep, even one that outlived its lease while it ran', async () => {
  await startWorker();
  const before = await balance();
  const [a, b] = catalogue.slice(3, 5).map((p) => p.id);
  const done = await api.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: a }, { supplierProductId: 'SBX-P99999' }] },
    headers: { 'X-Request-Id': 'finished-import' },
  });
  expect(done.status).toBe(201);
  expect(done.body.result.products).toHaveLength(1);
  expect(await holds()).toEqual([]);

  // Slower than three leases: the request keeps its hold alive while it runs, so the sweep never takes it.
  await sandbox.control('POST', '/faults', { accountLatencyMs: { [sandboxAccount]: 10000 } });
  try {
    const slow = await api.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
      key: owner.key,
      body: { products: [{ supplierProductId: b }] },
      headers: { 'X-Request-Id': 'slow-import' },
    });
    expect(slow.status).toBe(201);
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  await sleep(8000);
  expect(await ledgerOf('finished-import')).toEqual([
    { action: 'supplierProduct.import', amount: -4 },
    { action: 'supplierProduct.import.refund', amount: 2 },
  ]);
  expect(await ledgerOf('slow-import')).toEqual([{ action: 'supplierProduct.import', amount: -2 }]);
  expect(await balance()).toBe(before - 4);
  expect(await productsLinkedTo([a, b])).toBe(2);
}, 180000);

test('a process stalled past its lease: the sweep refunds the hold, and the work the process then tries is refused, not done unpaid', async () => {
  await startWorker();
  const before = await balance();
  const id = catalogue[5].id;
  await sandbox.control('POST', '/faults', { accountLatencyMs: { [sandboxAccount]: 6000 } });
  try {
    const answer = api.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
      key: owner.key,
      body: { products: [{ supplierProductId: id }] },
      headers: { 'X-Request-Id': 'stalled-import' },
    });
    await eventually(async () => ((await holds()).length === 1 ? true : undefined), 20000, 'the credits held');
    // Stopped while it waits on the supplier: it cannot renew its lease, so the worker's sweep refunds the hold.
    api.proc.kill('SIGSTOP');
    try {
      await eventually(async () => ((await holds()).length === 0 ? true : undefined), 30000, "the sweep refunding the stalled request's hold");
    } finally {
      api.proc.kill('SIGCONT');
    }
    const res = await answer;
    expect([res.status, res.body.error.code]).toEqual([422, 'nothingImported']);
    expect(res.body.error.details).toEqual([expect.objectContaining({ supplierProductId: id, code: 'serviceUnavailable' })]);
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  expect(await productsLinkedTo([id])).toBe(0);
  expect(await ledgerOf('stalled-import')).toEqual([
    { action: 'supplierProduct.import', amount: -2 },
    { action: 'supplierProduct.import.refund', amount: 2 },
  ]);
  expect(await balance()).toBe(before);
}, 180000);

leakScanTest();
