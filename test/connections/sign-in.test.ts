import crypto from 'node:crypto';
import { call, createStore, Developer, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { approveAt, CookieBrowser, openSignIn, sandboxApproval } from '../support/sign-in-browser';
import { Secrets } from '../../server/platform/crypto';

/** The secret the harness starts services with. */
const TEST_APP_SECRET = 'test-secret-'.padEnd(48, 'x');

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'signin', sandbox, publicBaseUrl: true });
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

/**
 * A member opens the sign-in's address in their browser (signed in as `session`) and approves at the sandbox
 * supplier's page as `accountId`; answers the browser and where the supplier sends it back.
 */
async function openAndApprove(authorizationUrl: string, accountId: string, session = owner.session): Promise<{ browser: CookieBrowser; back: URL }> {
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, authorizationUrl, session);
  expect(opened.status).toBe(200);
  return { browser, back: new URL(await approveAt(opened.supplierUrl!, sandboxApproval(accountId))) };
}

const connectionsOf = async (store: string) => (await svc.db.query(`SELECT id FROM supplier_connections WHERE store_id = $1`, [store])).rows;

test('end to end: start, approve at the supplier, come back with a code, connection created', async () => {
  const acc = await sandbox.account(4200);
  const started = await start();
  expect(new URL(started.authorizationUrl).origin).toBe(svc.baseUrl);
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, started.authorizationUrl, owner.session);
  const url = new URL(opened.supplierUrl!);
  expect(url.origin).toBe(sandbox.baseUrl);
  expect(url.searchParams.get('state')).toBe(started.state);
  expect(url.searchParams.get('redirect_uri')).toBe(`${svc.baseUrl}/api/store-suppliers/oauth/callback`);

  const back = new URL(await approveAt(opened.supplierUrl!, sandboxApproval(acc.accountId)));
  expect(back.origin + back.pathname).toBe(`${svc.baseUrl}/api/store-suppliers/oauth/callback`);
  const done = await browser.navigate(back.toString());
  expect(done.status).toBe(201);
  expect(done.body.result).toMatchObject({
    supplierKey: 'sandbox-signin',
    mode: 'live',
    hasCredentials: true,
    createdByKeyId: owner.keyId,
    accountLabel: `${acc.accountId} (live)`,
  });
  const balance = await svc.call('GET', `/api/store-suppliers/${storeId}/${done.body.result.id}/balance`, { key: owner.key });
  expect(balance.status).toBe(400);
  expect(balance.body.error.code).toBe('balanceNotSupported');
  const test = await svc.call('POST', `/api/store-suppliers/${storeId}/${done.body.result.id}/test`, { key: owner.key });
  expect(test.body.result.health.status).toBe('healthy');

  // The same state again, even in the same browser: refused, and no second connection.
  const replay = await browser.navigate(back.toString());
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
  const { browser, back } = await openAndApprove(started.authorizationUrl, acc.accountId);
  const code = back.searchParams.get('code')!;
  const cb = async (state: string) =>
    await browser.navigate(`${svc.baseUrl}/api/store-suppliers/oauth/callback?state=${encodeURIComponent(state)}&code=${encodeURIComponent(code)}`);
  const [stateStore, nonce, sig] = started.state.split('.');
  expect(stateStore).toBe(store);
  const otherStore = await createStore(svc, owner.key, 'Other');
  // The shape states had before they named their store (`nonce.signature`), rightly signed: no published version made one.
  const unnamed = `${nonce}.${new Secrets(TEST_APP_SECRET).sign(`sign-in|${nonce}`)}`;
  for (const bad of [
    `${store}.${nonce}.${sig.slice(0, -2)}xx`,
    `${store}.${nonce}x.${sig}`,
    `${otherStore}.${nonce}.${sig}`,
    `${nonce}.${sig}`,
    unnamed,
    'made-up',
    `${nonce}`,
    `${store}.${nonce}`,
    `.${nonce}.${sig}`,
  ]) {
    const res = await cb(bad);
    expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'invalidSignInState']);
  }
  const missing = await call(svc.baseUrl, 'GET', `/api/store-suppliers/oauth/callback?code=x`);
  expect(missing.status).toBe(400);

  await svc.db.query(`UPDATE supplier_sign_in_states SET expires_at = now() - interval '1 second' WHERE nonce = $1`, [nonce]);
  const expired = await cb(started.state);
  expect(expired.body.error.code).toBe('invalidSignInState');
  expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1', [store])).rows[0].n).toBe(0);
});

test('the state is bound to the store and the user who started it: a starter who lost the permission cannot complete it', async () => {
  const staff = await newDeveloper(svc);
  const store = await createStore(svc, owner.key, 'Bound');
  await svc.call('PUT', `/api/stores/${store}/staff`, { key: owner.key, body: { email: staff.email, permissions: ['suppliers.manage'] } });
  const started = await start(staff.key, store);
  const acc = await sandbox.account();
  // The owner opens it in their own browser; meanwhile the staff member who started it loses the permission.
  const { browser, back } = await openAndApprove(started.authorizationUrl, acc.accountId);
  await svc.call('PUT', `/api/stores/${store}/staff`, { key: owner.key, body: { email: staff.email, permissions: ['suppliers.view'] } });
  const res = await browser.navigate(back.toString());
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalidSignInState');
  expect(await connectionsOf(store)).toEqual([]);
});

test('a merchant who declines at the supplier: 400 signInDeclined; the state is used up', async () => {
  const started = await start();
  const browser = new CookieBrowser();
  expect((await openSignIn(browser, svc, started.authorizationUrl, owner.session)).status).toBe(200);
  // The supplier's page sends the browser back with an error instead of a code.
  const res = await browser.navigate(`${svc.baseUrl}/api/store-suppliers/oauth/callback?state=${encodeURIComponent(started.state)}&error=access_denied`);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('signInDeclined');
  const again = await browser.navigate(`${svc.baseUrl}/api/store-suppliers/oauth/callback?state=${encodeURIComponent(started.state)}&error=access_denied`);
  expect(again.body.error.code).toBe('invalidSignInState');
});

test('a forwarded sign-in link: a stranger cannot open it, and the sandbox account they approve with is never connected', async () => {
  const store = await createStore(svc, owner.key, 'Forwarded');
  const started = await start(owner.key, store);
  const stranger = await newDeveloper(svc, { plan: 'pro' });
  const strangersAccount = await sandbox.account();
  const strangerBrowser = new CookieBrowser();
  const opened = await openSignIn(strangerBrowser, svc, started.authorizationUrl, stranger.session);
  if (opened.supplierUrl) await strangerBrowser.navigate(await approveAt(opened.supplierUrl, sandboxApproval(strangersAccount.accountId)));
  expect(await connectionsOf(store)).toEqual([]);
  expect([opened.status, opened.body.error.code]).toEqual([404, 'notFound']);
});

test('a forwarded supplier page: approved in another browser, the way back connects nothing and the code is never exchanged', async () => {
  const store = await createStore(svc, owner.key, 'Forwarded page');
  const started = await start(owner.key, store);
  const victimsAccount = await sandbox.account();
  const { back } = await openAndApprove(started.authorizationUrl, victimsAccount.accountId);
  const victimBrowser = new CookieBrowser();
  const res = await victimBrowser.navigate(back.toString());
  expect([res.status, res.body.error?.code]).toEqual([400, 'signInBrowserMismatch']);
  expect(await connectionsOf(store)).toEqual([]);
  // The sandbox supplier still holds the code unexchanged: the service never asked for the account's token.
  const exchanged = await fetch(`${sandbox.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: `${svc.baseUrl}/api/store-suppliers/oauth/callback`,
      client_id: 'store-suppliers',
    }),
  });
  const token = await exchanged.json();
  expect([exchanged.status, typeof token.access_token]).toEqual([200, 'string']);
  seen.secrets.add(token.access_token);
});

test('opening a sign-in: a signed-in member with suppliers.manage only; never a key; once per member', async () => {
  const store = await createStore(svc, owner.key, 'Openers');
  const viewer = await newDeveloper(svc);
  const manager = await newDeveloper(svc);
  await svc.call('PUT', `/api/stores/${store}/staff`, { key: owner.key, body: { email: viewer.email, permissions: ['suppliers.view'] } });
  await svc.call('PUT', `/api/stores/${store}/staff`, { key: owner.key, body: { email: manager.email, permissions: ['suppliers.manage'] } });
  const started = await start(owner.key, store);
  const signInId = new URL(started.authorizationUrl).hash.split('/')[2];
  const open = (auth: { key?: string; session?: string }, id = signInId) => svc.call('POST', `/api/store-suppliers/${store}/oauth/${id}/open`, auth);
  const byKey = await open({ key: owner.key });
  expect([byKey.status, byKey.body.error.code]).toEqual([403, 'consoleSessionRequired']);
  const byViewer = await open({ session: viewer.session });
  expect([byViewer.status, byViewer.body.error.code, byViewer.body.error.details[0].permission]).toEqual([403, 'permissionDenied', 'suppliers.manage']);
  expect((await open({ session: owner.session }, crypto.randomUUID())).status).toBe(404);
  expect((await svc.call('POST', `/api/store-suppliers/${storeId}/oauth/${signInId}/open`, { session: owner.session })).status).toBe(404);

  const first = await open({ session: manager.session });
  expect(first.status).toBe(200);
  expect(first.headers.get('set-cookie')).toMatch(
    /^ss_sign_in_[0-9a-f-]{36}=[A-Za-z0-9_-]{43}; Path=\/api\/store-suppliers\/oauth\/callback; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
  );
  expect(first.headers.get('cache-control')).toBe('no-store');
  // The same member again (another browser of theirs): the newest holds it. Another member: refused.
  expect((await open({ session: manager.session })).status).toBe(200);
  const byOwner = await open({ session: owner.session });
  expect([byOwner.status, byOwner.body.error.code]).toEqual([409, 'signInOpenedByAnother']);

  await svc.db.query(`UPDATE supplier_sign_in_states SET expires_at = now() - interval '1 second' WHERE id = $1`, [signInId]);
  const expired = await open({ session: manager.session });
  expect([expired.status, expired.body.error.code]).toEqual([400, 'invalidSignInState']);
});

test('each supplier is connected its own way', async () => {
  const byKey = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox-signin', mode: 'live', credentials: {} },
  });
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
  const { browser, back } = await openAndApprove(res.body.result.authorizationUrl, acc.accountId);
  const done = await browser.navigate(back.toString());
  expect(done.status).toBe(201);
  expect(done.body.result.mode).toBe('test');
});

test('a sign-in connection costs what a key connection costs: charged once, refunded when declined or renewed, 402 when too few credits', async () => {
  const payer = await newDeveloper(svc, { plan: 'pro', credits: 20 });
  const store = await createStore(svc, payer.key, 'Paid');
  const ledger = async () =>
    (
      await svc.db.query(`SELECT action, amount FROM credit_ledger WHERE account_id = $1 AND action LIKE 'supplierConnection.connect%' ORDER BY id`, [
        payer.accountId,
      ])
    ).rows;
  const credits = async () => (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [payer.accountId])).rows[0].credits as number;
  const acc = await sandbox.account();

  const before = await credits();
  const first = await openAndApprove((await start(payer.key, store)).authorizationUrl, acc.accountId, payer.session);
  const done = await first.browser.navigate(first.back.toString());
  expect(done.status).toBe(201);
  expect(await credits()).toBe(before - 5);
  expect(await ledger()).toEqual([{ action: 'supplierConnection.connect', amount: -5 }]);

  // Declined at the supplier: charged by the pipeline, then refunded when the handler refuses.
  const declined = await start(payer.key, store);
  const declinedBrowser = new CookieBrowser();
  await openSignIn(declinedBrowser, svc, declined.authorizationUrl, payer.session);
  const no = await declinedBrowser.navigate(
    `${svc.baseUrl}/api/store-suppliers/oauth/callback?state=${encodeURIComponent(declined.state)}&error=access_denied`,
  );
  expect(no.body.error.code).toBe('signInDeclined');
  expect(await credits()).toBe(before - 5);

  // Signed in again: the connection is renewed, which spends nothing, so the up-front charge is refunded.
  const again = await openAndApprove((await start(payer.key, store)).authorizationUrl, acc.accountId, payer.session);
  const renewed = await again.browser.navigate(again.back.toString());
  expect(renewed.status).toBe(201);
  expect(renewed.body.result.id).toBe(done.body.result.id);
  expect(await credits()).toBe(before - 5);
  expect((await ledger()).slice(-2)).toEqual([
    { action: 'supplierConnection.connect', amount: -5 },
    { action: 'supplierConnection.connect.refund', amount: 5 },
  ]);

  await svc.db.query('UPDATE accounts SET credits = 4 WHERE id = $1', [payer.accountId]);
  const poor = await openAndApprove((await start(payer.key, store)).authorizationUrl, acc.accountId, payer.session);
  const refused = await poor.browser.navigate(poor.back.toString());
  expect([refused.status, refused.body.error.code]).toEqual([402, 'insufficientCredits']);
  expect(await credits()).toBe(4);
  const n = await svc.db.query(`SELECT count(*)::int AS n FROM supplier_connections WHERE store_id = $1`, [store]);
  expect(n.rows[0].n).toBe(1);
});

leakScanTest();
