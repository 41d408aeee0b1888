import {
  createDatabase,
  createKey,
  createStore,
  Developer,
  eventually,
  leakScanTest,
  newDeveloper,
  notificationAddress,
  Sandbox,
  seen,
  Service,
  startSandbox,
  startService,
} from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'connections', sandbox, publicBaseUrl: true, env: { DISABLED_SUPPLIERS: 'sandbox-signin' } });
  owner = await newDeveloper(svc, { plan: 'pro', credits: 500 });
  storeId = await createStore(svc, owner.key);
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const base = (p = '') => `/api/store-suppliers/${storeId}${p}`;

async function connect(key: string, apiKey: string, mode: 'live' | 'test' = 'live', store = storeId) {
  return svc.call('POST', `/api/store-suppliers/${store}`, { key, body: { supplierKey: 'sandbox', mode, credentials: { apiKey } } });
}

test('the catalogue names each supplier with what it can do; a supplier switched off by the operator is marked', async () => {
  const res = await svc.call('GET', base('/catalogue'), { key: owner.key });
  expect(res.status).toBe(200);
  const byKey = Object.fromEntries(res.body.result.map((e: { key: string }) => [e.key, e]));
  expect(byKey.sandbox).toMatchObject({
    available: true,
    capabilities: { authKind: 'apiKey', hasSandbox: true, balance: true, notifications: true, payment: 'balance' },
  });
  expect(byKey.sandbox.settingsSchema.properties).toHaveProperty('shippingSpeed');
  expect(byKey['sandbox-signin']).toMatchObject({ available: false, capabilities: { authKind: 'signIn', hasSandbox: false } });
});

describe('connect with an API key', () => {
  test('a refused key: 400 credentialsRejected and nothing stored or charged', async () => {
    const credits = (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [owner.accountId])).rows[0].credits;
    const res = await connect(owner.key, 'sbx_live_doesnotexist');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('credentialsRejected');
    expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1', [storeId])).rows[0].n).toBe(0);
    expect((await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [owner.accountId])).rows[0].credits).toBe(credits);
  });

  test('a live key on a test connection is refused; a malformed key fails validation', async () => {
    const acc = await sandbox.account();
    const wrongMode = await connect(owner.key, acc.liveKey, 'test');
    expect(wrongMode.status).toBe(400);
    expect(wrongMode.body.error.code).toBe('credentialsRejected');
    const malformed = await svc.call('POST', base(), {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: 'nope', extra: 1 } },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('validationFailed');
    const unknown = await svc.call('POST', base(), { key: owner.key, body: { supplierKey: 'acme', mode: 'live', credentials: {} } });
    expect(unknown.body.error.details[0].field).toBe('body/supplierKey');
  });

  test('a good key: the connection is stored with sealed credentials, charged, and its notification address registered', async () => {
    const acc = await sandbox.account(54321);
    const res = await connect(owner.key, acc.liveKey);
    expect(res.status).toBe(201);
    const c = res.body.result;
    expect(c).toMatchObject({
      supplierKey: 'sandbox',
      mode: 'live',
      enabled: true,
      hasCredentials: true,
      accountLabel: `${acc.accountId} (live)`,
      settings: { shippingSpeed: 'standard' },
      automation: { level: 'manual', automaticPayment: false, costLimit: null, excludedCountries: [], allowUnpaidOrders: false },
      health: null,
      isCircuitOpen: false,
      circuitOpenUntil: null,
      lastWebhookAt: null,
      webhookUrl: expect.stringMatching(notificationAddress(svc.baseUrl, storeId, c.id)),
      createdByKeyId: owner.keyId,
    });
    expect(res.text).not.toContain(acc.liveKey);
    const [row] = (await svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE id = $1', [c.id])).rows;
    expect(row.credentials_sealed).toMatch(/^v1\./);
    expect(row.credentials_sealed).not.toContain(acc.liveKey);
    const hook = await sandbox.v1(acc.liveKey, 'GET', '/webhook');
    expect(hook.body.url).toBe(c.webhookUrl);
    // Earlier refused connects were charged and refunded; this one is the only net charge.
    const ledger = await svc.db.query(`SELECT sum(amount)::int AS net FROM credit_ledger WHERE account_id = $1 AND action LIKE 'supplierConnection.connect%'`, [
      owner.accountId,
    ]);
    expect(ledger.rows).toEqual([{ net: -5 }]);

    const again = await connect(owner.key, acc.liveKey);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('alreadyConnected');

    const list = await svc.call('GET', base(), { key: owner.key });
    expect(list.body.result.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect(list.body.result[0].webhookUrl).toBe(c.webhookUrl);
  });

  test('a test connection with a test key places nothing in live', async () => {
    const acc = await sandbox.account();
    const res = await connect(owner.key, acc.testKey, 'test');
    expect(res.status).toBe(201);
    expect(res.body.result.accountLabel).toBe(`${acc.accountId} (test)`);
  });
});

describe('one connection', () => {
  let acc: { accountId: string; liveKey: string; testKey: string };
  let id: string;
  let store2: string;
  const one = (p = '') => `/api/store-suppliers/${store2}/${id}${p}`;

  beforeAll(async () => {
    store2 = await createStore(svc, owner.key, 'Second');
    acc = await sandbox.account(12345);
    id = (await connect(owner.key, acc.liveKey, 'live', store2)).body.result.id;
  });

  test("balance answers the supplier's balance in minor units", async () => {
    const res = await svc.call('GET', one('/balance'), { key: owner.key });
    expect(res.body.result).toEqual({ amountMinor: 12345, currency: 'USD' });
    await sandbox.control('POST', `/accounts/${acc.accountId}/balance`, { balanceMinor: 777 });
    expect((await svc.call('GET', one('/balance'), { key: owner.key })).body.result.amountMinor).toBe(777);
  });

  test('test records health: healthy, then unhealthy while the supplier refuses the key', async () => {
    const ok = await svc.call('POST', one('/test'), { key: owner.key });
    expect(ok.status).toBe(200);
    expect(ok.body.result.health).toMatchObject({ status: 'healthy', latencyMs: expect.any(Number) });
    expect(Date.parse(ok.body.result.health.checkedAt)).toBeGreaterThan(Date.now() - 10000);
    await sandbox.control('POST', '/faults', { rejectKeys: true });
    try {
      const bad = await svc.call('POST', one('/test'), { key: owner.key });
      expect(bad.body.result.health.status).toBe('unhealthy');
      expect(bad.body.result.health.message).not.toContain(acc.liveKey);
    } finally {
      await sandbox.control('DELETE', '/faults');
    }
  });

  test('impact counts linked products and open supplier orders', async () => {
    const res = await svc.call('GET', one('/impact'), { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ linkedProducts: 0, openSupplierOrders: 0 });
  });

  test("settings are validated against the supplier's own schema", async () => {
    const ok = await svc.call('PUT', one('/settings'), { key: owner.key, body: { settings: { shippingSpeed: 'express', orderNotePrefix: 'ACME' } } });
    expect(ok.body.result.settings).toEqual({ shippingSpeed: 'express', orderNotePrefix: 'ACME' });
    const bad = await svc.call('PUT', one('/settings'), { key: owner.key, body: { settings: { shippingSpeed: 'teleport', colour: 'red' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validationFailed');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['body/settings', 'body/settings/shippingSpeed']);
    const [row] = (await svc.db.query('SELECT settings FROM supplier_connections WHERE id = $1', [id])).rows;
    expect(row.settings.shippingSpeed).toBe('express');
  });

  test('automation: fields given change, others keep; bad values are named', async () => {
    const res = await svc.call('PUT', one('/automation'), {
      key: owner.key,
      body: { level: 'automatic', costLimit: { amountMinor: 5000, currency: 'USD' }, excludedCountries: ['fr', 'DE'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.automation).toEqual({
      level: 'automatic',
      automaticPayment: false,
      costLimit: { amountMinor: 5000, currency: 'USD' },
      excludedCountries: ['DE', 'FR'],
      allowUnpaidOrders: false,
      shippingMethod: { rule: 'cheapest' },
      reroute: { reasons: ['variantUnavailable', 'destinationUnsupported', 'costAboveLimit'], maxCostIncreasePercent: 10 },
      deliveryWatch: { noTrackingDays: 7, noMovementHours: 72, overdueGraceDays: 3, exceptions: ['returnedToSender', 'failedDelivery', 'customsHold'] },
    });
    // The delivery watch's thresholds (issue 54), changed whole; the other fields keep.
    const watch = await svc.call('PUT', one('/automation'), {
      key: owner.key,
      body: { deliveryWatch: { noTrackingDays: 5, noMovementHours: 48, overdueGraceDays: 0, exceptions: ['customsHold'] } },
    });
    expect(watch.body.result.automation).toMatchObject({
      level: 'automatic',
      deliveryWatch: { noTrackingDays: 5, noMovementHours: 48, overdueGraceDays: 0, exceptions: ['customsHold'] },
    });
    const more = await svc.call('PUT', one('/automation'), { key: owner.key, body: { automaticPayment: true, costLimit: null } });
    expect(more.body.result.automation).toMatchObject({ level: 'automatic', automaticPayment: true, costLimit: null, excludedCountries: ['DE', 'FR'] });
    const bad = await svc.call('PUT', one('/automation'), {
      key: owner.key,
      body: { level: 'sometimes', excludedCountries: ['FRA'], costLimit: { amountMinor: -1, currency: 'usd' }, extra: true },
    });
    expect(bad.status).toBe(400);
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body/level', 'body/excludedCountries/0', 'body/extra']));
    expect((await svc.call('PUT', one('/automation'), { key: owner.key, body: {} })).status).toBe(400);
  });

  test('enabled switches the connection off and on', async () => {
    const off = await svc.call('PUT', one('/enabled'), { key: owner.key, body: { enabled: false } });
    expect(off.body.result.enabled).toBe(false);
    const on = await svc.call('PUT', one('/enabled'), { key: owner.key, body: { enabled: true } });
    expect(on.body.result.enabled).toBe(true);
  });

  test('replacing credentials verifies them first; a refused key leaves the old ones', async () => {
    const before = (await svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE id = $1', [id])).rows[0].credentials_sealed;
    const refused = await svc.call('PUT', one(), { key: owner.key, body: { credentials: { apiKey: 'sbx_live_wrong' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('credentialsRejected');
    expect((await svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE id = $1', [id])).rows[0].credentials_sealed).toBe(before);
    const other = await sandbox.account(999);
    const ok = await svc.call('PUT', one(), { key: owner.key, body: { credentials: { apiKey: other.liveKey } } });
    expect(ok.status).toBe(200);
    expect(ok.body.result.accountLabel).toBe(`${other.accountId} (live)`);
    expect((await svc.call('GET', one('/balance'), { key: owner.key })).body.result.amountMinor).toBe(999);
    // The notification address is registered with the new account too.
    expect((await sandbox.v1(other.liveKey, 'GET', '/webhook')).body.url).toBe(ok.body.result.webhookUrl);
  });

  test("disconnect deletes the credentials; the store's products stay; the connection is gone from lists", async () => {
    const product = await svc.call('POST', `/api/store-products/${store2}`, {
      key: owner.key,
      body: { title: 'Stays', variants: [{ sku: 'STAY-1', title: 'V', priceMinor: 100, currency: 'USD', stock: 1 }] },
    });
    const res = await svc.call('DELETE', one(), { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ id, disconnected: true, impact: { linkedProducts: 0, openSupplierOrders: 0 }, removedLinks: 0 });
    const [row] = (await svc.db.query('SELECT credentials_sealed, enabled, disconnected_at FROM supplier_connections WHERE id = $1', [id])).rows;
    expect(row).toMatchObject({ credentials_sealed: null, enabled: false });
    expect(row.disconnected_at).not.toBeNull();
    expect((await svc.call('GET', `/api/store-suppliers/${store2}`, { key: owner.key })).body.result).toEqual([]);
    expect((await svc.call('GET', one('/balance'), { key: owner.key })).status).toBe(404);
    expect((await svc.call('GET', `/api/store-products/${store2}/${product.body.result.id}`, { key: owner.key })).status).toBe(200);
    // The same supplier can be connected again afterwards.
    expect((await connect(owner.key, acc.liveKey, 'live', store2)).status).toBe(201);
  });
});

test('a supplier switched off by the operator cannot be connected', async () => {
  const res = await svc.call('POST', base('/oauth/start'), { key: owner.key, body: { supplierKey: 'sandbox-signin', mode: 'live' } });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('supplierSwitchedOff');
});

test('record scope: an own key sees and changes only connections it made', async () => {
  const store3 = await createStore(svc, owner.key, 'Scoped');
  const own = await createKey(svc, owner.session, 'own', 'own');
  const a = await sandbox.account();
  const b = await sandbox.account();
  const mine = (await connect(own.key, a.liveKey, 'live', store3)).body.result;
  const theirs = (await connect(owner.key, b.testKey, 'test', store3)).body.result;
  const listed = await svc.call('GET', `/api/store-suppliers/${store3}`, { key: own.key });
  expect(listed.body.result.map((c: { id: string }) => c.id)).toEqual([mine.id]);
  for (const [method, p, body] of [
    ['GET', '/balance', undefined],
    ['PUT', '/enabled', { enabled: false }],
    ['DELETE', '', undefined],
  ] as const) {
    const res = await svc.call(method, `/api/store-suppliers/${store3}/${theirs.id}${p}`, { key: own.key, body });
    expect([p, res.status]).toEqual([p, 404]);
  }
  expect((await svc.call('GET', `/api/store-suppliers/${store3}`, { key: owner.key })).body.result).toHaveLength(2);
});

test('without PUBLIC_BASE_URL the notification address is empty and nothing is registered', async () => {
  const plain = await startService({ label: 'nopublic', sandbox });
  try {
    const dev = await newDeveloper(plain, { plan: 'pro' });
    const store = await createStore(plain, dev.key);
    const acc = await sandbox.account();
    const res = await plain.call('POST', `/api/store-suppliers/${store}`, {
      key: dev.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    });
    expect(res.status).toBe(201);
    expect(res.body.result.webhookUrl).toBe('');
    expect((await sandbox.v1(acc.liveKey, 'GET', '/webhook')).body.url).toBeNull();
  } finally {
    await plain.stop();
  }
});

test('a changed public address is registered again with the supplier at the next start', async () => {
  const databaseUrl = await createDatabase('readdress');
  const first = await startService({ label: 'readdress', sandbox, databaseUrl, publicBaseUrl: true });
  const dev = await newDeveloper(first, { plan: 'pro' });
  const store = await createStore(first, dev.key);
  const acc = await sandbox.account();
  const conn = (
    await first.call('POST', `/api/store-suppliers/${store}`, {
      key: dev.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  const firstUrl = (await sandbox.v1(acc.liveKey, 'GET', '/webhook')).body.url as string;
  expect(firstUrl).toMatch(notificationAddress(first.baseUrl, store, conn.id));
  await first.stop();
  const second = await startService({ label: 'readdress', sandbox, databaseUrl, publicBaseUrl: true });
  try {
    expect(second.baseUrl).not.toBe(first.baseUrl);
    // The same integration id (its tag is kept across restarts), under the new public address.
    const expected = `${second.baseUrl}${new URL(firstUrl).pathname}`;
    await eventually(
      async () => ((await sandbox.v1(acc.liveKey, 'GET', '/webhook')).body.url === expected ? true : undefined),
      10000,
      'the address to be registered again',
    );
    const listed = (await second.call('GET', `/api/store-suppliers/${store}`, { key: dev.key })).body.result[0];
    expect(listed.webhookUrl).toBe(expected);
  } finally {
    await second.stop();
  }
});

test('credentials never appear in a response or log line, and are kept sealed', async () => {
  // The supplier keys this file connected with (every sandbox account's keys are registered as secrets).
  const credentials = [...seen.secrets].filter((s) => /^sbx_(live|test)_/.test(s));
  expect(credentials.length).toBeGreaterThan(3);
  const leaks: string[] = [];
  for (const c of credentials) {
    for (const r of seen.responses) if (r.text.includes(c)) leaks.push(`${c.slice(0, 12)}… in the response of ${r.route}`);
    for (const line of seen.logLines) if (line.includes(c)) leaks.push(`${c.slice(0, 12)}… in a log line`);
  }
  expect(leaks).toEqual([]);
  // The connections this file listed answered with only whether credentials are stored.
  const listed = await svc.call('GET', base(), { key: owner.key });
  expect(listed.body.result.length).toBeGreaterThan(0);
  for (const conn of listed.body.result) {
    expect(conn.hasCredentials).toBe(true);
    expect(Object.keys(conn)).not.toEqual(expect.arrayContaining(['credentials']));
  }
  // At rest: sealed, never the key itself.
  const rows = (await svc.db.query('SELECT credentials_sealed FROM supplier_connections WHERE credentials_sealed IS NOT NULL')).rows;
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row.credentials_sealed).toMatch(/^v1\./);
    for (const c of credentials) expect(row.credentials_sealed).not.toContain(c);
  }
});

leakScanTest();
