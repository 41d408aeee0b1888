/**
 * The catalogue's jobs name their store, so every statement they make stays on the store's shard; a job naming another
 * store than its connection's syncs nothing.
 */
import {
  createDatabase,
  createStore,
  Developer,
  eventually,
  leakScanTest,
  newDeveloper,
  runCli,
  Sandbox,
  Service,
  startSandbox,
  startService,
} from '../support/harness';

let sandbox: Sandbox;
let api: Service;
let worker: Service | null = null;
let owner: Developer;
let storeId: string;
let connId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  const databaseUrl = await createDatabase('storejobs');
  // The api role only at first: a job waits on the queue until the worker starts.
  api = await startService({ label: 'storejobs', sandbox, databaseUrl, role: 'api' });
  owner = await newDeveloper(api, { plan: 'pro', credits: 1000 });
  storeId = await createStore(api, owner.key);
  const acc = await sandbox.account();
  connId = (
    await api.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
});
afterAll(async () => {
  await worker?.stop();
  await api.stop();
  await sandbox.close();
});

/** The worker, started once the first test has changed what waits on the queue. */
async function startWorker(): Promise<void> {
  worker ??= await startService({ label: 'storejobs', sandbox, databaseUrl: api.databaseUrl, role: 'worker' });
}

const jobsOf = async (queue: string, key: string, value: string) =>
  (await api.db.query(`SELECT data, state FROM pgboss.job WHERE name = $1 AND data->>$2 = $3 ORDER BY created_on`, [queue, key, value])).rows as Array<{
    data: Record<string, string>;
    state: string;
  }>;
/** A job put on the queue as the service would (its singleton key as the service makes it). */
const queue = (name: string, key: string, data: Record<string, string>) =>
  api.db.query(`INSERT INTO pgboss.job (name, data, policy, singleton_key) VALUES ($1, $2, 'stately', $3)`, [name, JSON.stringify(data), key]);

/** A supplier product imported inline: its store product's first variant and the supplier variant it maps to. */
async function importOne(page: number) {
  const items = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=100&page=${page}`)).body.items;
  const sp = items.find((p: any) => p.variants.every((v: any) => v.available && v.stock > 0));
  const res = await api.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: sp.id }] },
  });
  if (res.status !== 201 || res.body.result.errors.length) throw new Error(res.text);
  const product = res.body.result.products[0];
  return { supplierProductId: sp.id as string, supplierVariantId: sp.variants[0].id as string, productId: product.id as string };
}
const stockOf = async (productId: string) =>
  (await api.db.query('SELECT stock FROM store_variants WHERE store_id = $1 AND product_id = $2 ORDER BY position LIMIT 1', [storeId, productId])).rows[0]
    .stock as number;

test('an import job names its store and runs to the end within it', async () => {
  const chosen = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=60&page=3')).body.items.slice(0, 60);
  const res = await api.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: chosen.map((p: any) => ({ supplierProductId: p.id })) },
  });
  expect(res.status).toBe(202);
  const jobId = res.body.result.id;
  expect((await jobsOf('catalog.import', 'importJobId', jobId)).map((j) => j.data)).toEqual([{ importJobId: jobId, storeId }]);
  await startWorker();
  const done = await eventually(
    async () => {
      const p = (await api.call('GET', `/api/store-suppliers/${storeId}/imports/${jobId}`, { key: owner.key })).body.result;
      return p.status === 'completed' || p.status === 'failed' ? p : undefined;
    },
    90000,
    'the import job to finish',
  );
  expect(done).toMatchObject({ status: 'completed', total: 60, done: 60, failed: 0 });
  expect(
    (await api.db.query('SELECT count(*)::int AS n FROM import_job_items WHERE store_id = $1 AND job_id = $2 AND status = $3', [storeId, jobId, 'done']))
      .rows[0].n,
  ).toBe(60);
}, 150000);

test("the hourly fan-out queues each connection's sync naming its store", async () => {
  await startWorker();
  await importOne(4);
  runCli(api, 'sync-links');
  const jobs = await eventually(
    async () => {
      const found = await jobsOf('catalog.sync-connection', 'connectionId', connId);
      return found.some((j) => j.state === 'completed') ? found : undefined;
    },
    30000,
    "the connection's sync",
  );
  expect(jobs.map((j) => j.data)).toEqual([{ connectionId: connId, storeId }]);
});

test("attack: a sync job or read-back naming another store than its connection's syncs nothing of the connection's links", async () => {
  await startWorker();
  const a = await importOne(6);
  const before = await stockOf(a.productId);
  const other = await createStore(api, owner.key, 'Other store');
  await sandbox.control('POST', `/variants/${a.supplierVariantId}`, { stock: before + 5 });
  await queue('catalog.sync-connection', connId, { connectionId: connId, storeId: other });
  await queue('readback.supplier-product', `${connId}:${a.supplierProductId}`, {
    connectionId: connId,
    storeId: other,
    supplierProductId: a.supplierProductId,
  });
  const settled = async (name: string) => (await jobsOf(name, 'storeId', other)).every((j) => j.state === 'completed') || undefined;
  await eventually(
    async () => ((await settled('catalog.sync-connection')) && (await settled('readback.supplier-product'))) || undefined,
    30000,
    'both jobs to finish',
  );
  expect(await stockOf(a.productId)).toBe(before);
});

leakScanTest();
