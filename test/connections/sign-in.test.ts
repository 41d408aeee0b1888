import { call, createStore, Developer, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'signin', sandbox });
  owner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

async function start(key = owner.key, store = storeId) {
  const res = await svc.call('POST', `/api/store-suppliers/${store}/oauth/start`, { key, body: { supplierKey: 'sandbox-signin', mode: 'live' } });
  expect(res.status).toBe(200);
  return res.body.result as { authorizationUrl: string; state: string; expiresAt: string };
}

/** The merchant approves at the supplier's page; answers where the supplier sends the browser back. */
async function approve(authorizationUrl: string, accountId: string): Promise<URL> {
  const res = await fetch(`${authorizationUrl}&accountId=${encodeURIComponent(accountId)}&approve=1`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

test('end to end: start, approve at the supplier, come back with a code, connection created', async () => {
  const acc = await sandbox.account(4200);
  const started = await start();
  const url = new URL(started.authorizationUrl);
  expect(url.origin).toBe(sandbox.baseUrl);
  expect(url.searchParams.get('state')).toBe(started.state);
  expect(url.searchParams.get('redirect_uri')).toBe(`${svc.baseUrl}/api/store-suppliers/oauth/callback`);

  const back = await approve(started.authorizationUrl, acc.accountId);
  expect(back.origin + back.pathname).toBe(`${svc.baseUrl}/api/store-suppliers/oauth/callback`);
  const done = await call(svc.baseUrl, 'GET', back.pathname + back.search);
  expect(done.status).toBe(201);
  expect(done.body.result).toMatchObject({ supplierKey: 'sandbox-signin', mode: 'live', hasCredentials: true, createdByKeyId: owner.keyId, accountLabel: `${acc.accountId} (live)` });
  const balance = await svc.call('GET', `/api/store-suppliers/${storeId}/${done.body.result.id}/balance`, { key: owner.key });
  expect(balance.status).toBe(400);
  expect(balance.body.error.code).toBe('balanceNotSupported');
  const test = await svc.call('POST', `/api/store-suppliers/${storeId}/${done.body.result.id}/test`, { key: owner.key });
  expect(test.body.result.health.status).toBe('healthy');

  // The same state again: refused, and no second connection.
  const replay = await call(svc.baseUrl, 'GET', back.pathname + back.search);
  expect(replay.status).toBe(400);
  expect(replay.body.error.code).toBe('invalidSignInState');
  const n = await svc.db.query(`SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1 AND supplier_key = 'sandbox-signin'`, [storeId]);
  expect(n.rows[0].n).toBe(1);
  const [row] = (await svc.db.query(`SELECT credentials_sealed FROM supplier_connections WHERE id = $1`, [done.body.result.id])).rows;
  const token = new URLSearchParams(back.search).get('code')!;
  seen.secrets.add(token);
  expect(row.credentials_sealed).not.toContain('sbx_at_');
});

test('a tampered, made-up, expired or missing state is refused with 400', async () => {
  const acc = await sandbox.account();
  const store = await createStore(svc, owner.key, 'States');
  const started = await start(owner.key, store);
  const back = await approve(started.authorizationUrl, acc.accountId);
  const code = back.searchParams.get('code')!;
  const cb = (state: string) => call(svc.baseUrl, 'GET', `/api/store-suppliers/oauth/callback?state=${encodeURIComponent(state)}&code=${encodeURIComponent(code)}`);
  const [nonce, sig] = started.state.split('.');
  for (const bad of [`${nonce}.${sig.slice(0, -2)}xx`, `${nonce}x.${sig}`, 'made-up', `${nonce}`]) {
    const res = await cb(bad);
    expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'invalidSignInState']);
  }
  const missing = await call(svc.baseUrl, 'GET', `/api/store-suppliers/oauth/callback?code=x`);
  expect(missing.status).toBe(400);

  await svc.db.query(`UPDATE supplier_sign_in_states SET expires_at = now() - interval '1 second' WHERE nonce = $1`, [nonce]);
  const expired = await cb(started.state);
  expect(expired.body.error.code).toBe('invalidSignInState');
  expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1', [store])).rows[0].n).toBe(0);
});

test('the state is bound to the store and the user: a user who lost the permission cannot complete it', async () => {
  const staff = await newDeveloper(svc);
  const store = await createStore(svc, owner.key, 'Bound');
  await svc.call('PUT', `/api/stores/${store}/staff`, { key: owner.key, body: { email: staff.email, permissions: ['suppliers.manage'] } });
  const started = await start(staff.key, store);
  await svc.call('PUT', `/api/stores/${store}/staff`, { key: owner.key, body: { email: staff.email, permissions: ['suppliers.view'] } });
  const acc = await sandbox.account();
  const back = await approve(started.authorizationUrl, acc.accountId);
  const res = await call(svc.baseUrl, 'GET', back.pathname + back.search);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalidSignInState');
});

test('a merchant who declines at the supplier: 400 signInDeclined; the state is used up', async () => {
  const started = await start();
  const res = await call(svc.baseUrl, 'GET', `/api/store-suppliers/oauth/callback?state=${encodeURIComponent(started.state)}&error=access_denied`);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('signInDeclined');
});

test('each supplier is connected its own way', async () => {
  const byKey = await svc.call('POST', `/api/store-suppliers/${storeId}`, { key: owner.key, body: { supplierKey: 'sandbox-signin', mode: 'live', credentials: {} } });
  expect(byKey.status).toBe(400);
  expect(byKey.body.error.code).toBe('signInRequired');
  const bySignIn = await svc.call('POST', `/api/store-suppliers/${storeId}/oauth/start`, { key: owner.key, body: { supplierKey: 'sandbox', mode: 'live' } });
  expect(bySignIn.status).toBe(400);
  expect(bySignIn.body.error.code).toBe('apiKeyRequired');
});

test('a test connection to a supplier without a test environment is allowed', async () => {
  const store = await createStore(svc, owner.key, 'TestMode');
  const res = await svc.call('POST', `/api/store-suppliers/${store}/oauth/start`, { key: owner.key, body: { supplierKey: 'sandbox-signin', mode: 'test' } });
  expect(res.status).toBe(200);
  const acc = await sandbox.account();
  const back = await approve(res.body.result.authorizationUrl, acc.accountId);
  const done = await call(svc.baseUrl, 'GET', back.pathname + back.search);
  expect(done.status).toBe(201);
  expect(done.body.result.mode).toBe('test');
});


test('a sign-in connection costs what a key connection costs: charged once, refunded when declined, 402 when too few credits', async () => {
  const payer = await newDeveloper(svc, { plan: 'pro', credits: 20 });
  const store = await createStore(svc, payer.key, 'Paid');
  const ledger = async () => (await svc.db.query(`SELECT action, amount FROM credit_ledger WHERE account_id = $1 AND action LIKE 'supplierConnection.connect%' ORDER BY id`, [payer.accountId])).rows;
  const credits = async () => (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [payer.accountId])).rows[0].credits as number;
  const acc = await sandbox.account();

  const before = await credits();
  const back = await approve((await start(payer.key, store)).authorizationUrl, acc.accountId);
  const done = await call(svc.baseUrl, 'GET', back.pathname + back.search);
  expect(done.status).toBe(201);
  expect(await credits()).toBe(before - 5);
  expect(await ledger()).toEqual([{ action: 'supplierConnection.connect', amount: -5 }]);

  // Declined at the supplier: charged by the pipeline, then refunded when the handler refuses.
  const declined = await start(payer.key, store);
  const no = await call(svc.baseUrl, 'GET', `/api/store-suppliers/oauth/callback?state=${encodeURIComponent(declined.state)}&error=access_denied`);
  expect(no.body.error.code).toBe('signInDeclined');
  expect(await credits()).toBe(before - 5);

  await svc.db.query('UPDATE accounts SET credits = 4 WHERE id = $1', [payer.accountId]);
  const poor = await approve((await start(payer.key, store)).authorizationUrl, acc.accountId);
  const refused = await call(svc.baseUrl, 'GET', poor.pathname + poor.search);
  expect([refused.status, refused.body.error.code]).toEqual([402, 'insufficientCredits']);
  expect(await credits()).toBe(4);
  const n = await svc.db.query(`SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1`, [store]);
  expect(n.rows[0].n).toBe(1);
});

leakScanTest();
