import { createStore, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'circuit', sandbox, env: { CIRCUIT_FAILURE_THRESHOLD: '3', CIRCUIT_COOLDOWN_SECONDS: '1' } });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

test('opens after repeated supplier errors, refuses without calling the supplier, then lets one probe through and closes', async () => {
  const dev = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, dev.key);
  const acc = await sandbox.account(100);
  const conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: dev.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  const balance = () => svc.call('GET', `/api/store-suppliers/${storeId}/${conn.id}/balance`, { key: dev.key });

  await sandbox.control('POST', '/faults', { failNext: 10 });
  for (let i = 0; i < 3; i++) {
    const res = await balance();
    expect([i, res.status, res.body.error.code]).toEqual([i, 503, 'supplierUnavailable']);
  }
  const open = await balance();
  expect(open.status).toBe(503);
  expect(open.body.error.code).toBe('circuitOpen');
  // The refused call never reached the supplier: 7 of the 10 injected failures are still waiting.
  expect((await sandbox.control('GET', '/faults')).failNext).toBe(7);
  const listed = (await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: dev.key })).body.result[0];
  expect(listed.isCircuitOpen).toBe(true);
  expect(Date.parse(listed.circuitOpenUntil)).toBeGreaterThan(Date.now());

  // The probe is held 3 s at the supplier, so a second call sent once the probe is out arrives while it is.
  await sandbox.control('DELETE', '/faults');
  await sandbox.control('POST', '/faults', { latencyMs: 3000 });
  const openUntil = async () =>
    (await svc.db.query('SELECT circuit_open_until AS t, circuit_open_until <= now() AS due FROM supplier_connections WHERE id = $1', [conn.id])).rows[0];
  const opened = await eventually(
    async () => {
      const row = await openUntil();
      return row.due ? row.t : undefined;
    },
    20000,
    'the cool-down to pass',
  );
  // After the cool-down: one call takes the probe (it moves the circuit's time on); a call sent while it is out is refused.
  const a = balance();
  await eventually(async () => ((await openUntil()).t > opened ? true : undefined), 20000, 'the probe to be claimed');
  const b = await balance();
  expect([(await a).status, b.status, b.body.error?.code]).toEqual([200, 503, 'circuitOpen']);
  await sandbox.control('DELETE', '/faults');
  const after = await balance();
  expect(after.status).toBe(200);
  expect(after.body.result.amountMinor).toBe(100);
  const closed = (await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: dev.key })).body.result[0];
  expect(closed).toMatchObject({ isCircuitOpen: false, circuitOpenUntil: null });
  const [row] = (await svc.db.query('SELECT consecutive_failures FROM supplier_connections WHERE id = $1', [conn.id])).rows;
  expect(row.consecutive_failures).toBe(0);
});

test('a failed probe opens the circuit again; a healthy test closes it', async () => {
  const dev = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, dev.key);
  const acc = await sandbox.account(100);
  const conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: dev.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  const balance = () => svc.call('GET', `/api/store-suppliers/${storeId}/${conn.id}/balance`, { key: dev.key });
  await sandbox.control('POST', '/faults', { failNext: 4 });
  for (let i = 0; i < 3; i++) await balance();
  await eventually(
    async () =>
      (await svc.db.query('SELECT circuit_open_until <= now() AS due FROM supplier_connections WHERE id = $1', [conn.id])).rows[0].due ? true : undefined,
    20000,
    'the cool-down to pass',
  );
  const probe = await balance();
  expect(probe.body.error.code).toBe('supplierUnavailable');
  expect((await balance()).body.error.code).toBe('circuitOpen');
  const test = await svc.call('POST', `/api/store-suppliers/${storeId}/${conn.id}/test`, { key: dev.key });
  expect(test.body.result).toMatchObject({ isCircuitOpen: false, health: { status: 'healthy' } });
  expect((await balance()).status).toBe(200);
});

test('the health shown is the latest known: a successful call counts, and so does a call the supplier failed', async () => {
  const dev = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, dev.key);
  const acc = await sandbox.account(100);
  const conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: dev.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  expect(conn.health).toBeNull();
  const balance = () => svc.call('GET', `/api/store-suppliers/${storeId}/${conn.id}/balance`, { key: dev.key });
  const health = async () => (await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: dev.key })).body.result[0].health;
  expect((await balance()).status).toBe(200);
  expect(await health()).toMatchObject({ status: 'healthy', message: 'Sandbox Supplier answered the last call.' });
  await sandbox.control('POST', '/faults', { failNext: 1 });
  expect((await balance()).body.error).toMatchObject({
    code: 'supplierUnavailable',
    message: 'The supplier did not answer in time; try again in a few minutes.',
  });
  const failed = await health();
  expect(failed).toMatchObject({ status: 'unhealthy', message: 'Sandbox Supplier did not answer the last call in time, or answered with a server error.' });
  expect((await balance()).status).toBe(200);
  expect((await health()).status).toBe('healthy');
});

test('refusals that are not outages do not open the circuit', async () => {
  const dev = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, dev.key);
  const acc = await sandbox.account(100);
  const conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: dev.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  await sandbox.control('POST', '/faults', { rejectKeys: true });
  try {
    for (let i = 0; i < 5; i++) await svc.call('GET', `/api/store-suppliers/${storeId}/${conn.id}/balance`, { key: dev.key });
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  const [row] = (await svc.db.query('SELECT consecutive_failures, circuit_open_until FROM supplier_connections WHERE id = $1', [conn.id])).rows;
  expect(row).toEqual({ consecutive_failures: 0, circuit_open_until: null });
});

leakScanTest();
