/** A worker killed with SIGKILL in the middle of an import job: a new worker resumes it, duplicating nothing. */
import { createDatabase, createStore, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let api: Service;
const workers: Service[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  const databaseUrl = await createDatabase('resume');
  api = await startService({ label: 'resume', sandbox, databaseUrl, role: 'api' });
});
afterAll(async () => {
  for (const w of workers) await w.stop('SIGKILL').catch(() => undefined);
  await api.stop();
  await sandbox.close();
});

test('120-product import survives its worker being killed mid-job', async () => {
  const startWorker = async () => {
    const w = await startService({ label: 'resume', sandbox, databaseUrl: api.databaseUrl, role: 'worker', env: { JOB_SUPERVISE_SECONDS: '1' } });
    workers.push(w);
    return w;
  };
  const owner = await newDeveloper(api, { plan: 'pro', credits: 1000 });
  const storeId = await createStore(api, owner.key);
  const acc = await sandbox.account();
  const connId = (
    await api.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
  const page = (n: number) => sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=100&page=${n}`).then((r) => r.body.items);
  const chosen = [...(await page(7)), ...(await page(8))].slice(0, 120);
  const credits = async () => (await api.db.query('SELECT credits FROM accounts WHERE id = $1', [owner.accountId])).rows[0].credits as number;
  const before = await credits();

  await sandbox.control('POST', '/faults', { latencyMs: 120 });
  const first = await startWorker();
  const res = await api.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: chosen.map((p: any) => ({ supplierProductId: p.id })) },
  });
  expect(res.status).toBe(202);
  const jobId = res.body.result.id;
  const progress = () => api.call('GET', `/api/store-suppliers/${storeId}/imports/${jobId}`, { key: owner.key }).then((r) => r.body.result);

  const mid = await eventually(
    async () => {
      const p = await progress();
      return p.done >= 20 ? p : undefined;
    },
    60000,
    'the import to get going',
  );
  expect(mid.status).toBe('running');
  expect(mid.done).toBeLessThan(120);
  await first.stop('SIGKILL');
  const atKill = (await progress()).done;
  await sandbox.control('DELETE', '/faults');

  await startWorker();
  const done = await eventually(
    async () => {
      const p = await progress();
      return p.status === 'completed' ? p : undefined;
    },
    90000,
    'the import to resume and complete',
  );
  expect(atKill).toBeLessThan(120);
  expect(done).toMatchObject({ status: 'completed', total: 120, done: 120, failed: 0, errors: [] });
  const products = await api.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId]);
  expect(products.rows[0].n).toBe(120);
  const links = await api.db.query('SELECT count(*)::int AS n, count(DISTINCT supplier_product_id)::int AS d FROM product_links WHERE store_id = $1', [
    storeId,
  ]);
  expect(links.rows[0]).toEqual({ n: 120, d: 120 });
  const charges = await api.db.query(
    `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND action = 'supplierProduct.import' AND request_id LIKE $2`,
    [owner.accountId, `import:${jobId}:%`],
  );
  expect(charges.rows[0].n).toBe(120);
  expect(await credits()).toBe(before - 240);
}, 180000);

leakScanTest();
