/**
 * Where a sign-in sends the browser back (issue 40, item 4), attacked over real HTTP with the sandbox supplier: the
 * return address comes from configuration only, never from the request's Host; the callback takes only states made
 * for that address; the cookie is a `__Host-` one over https; and the state is used up only by the browser that
 * opened it, so a stranger holding it cannot cancel the member's sign-in.
 */
import http from 'node:http';
import { createStore, Developer, freePort, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { approveAt, CookieBrowser, openSignIn, sandboxApproval } from '../support/sign-in-browser';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'signin_address', sandbox, publicBaseUrl: true });
  owner = await newDeveloper(svc, { plan: 'pro' });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

/** POST with a Host header of the caller's choosing (fetch will not send one). */
function postWithHost(s: Service, path: string, host: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const u = new URL(s.baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method: 'POST', path, headers: { Host: host, 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => {
        seen.responses.push({ route: `POST ${path}`, text });
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const startPath = (store: string) => `/api/store-suppliers/${store}/oauth/start`;
const signInBody = { supplierKey: 'sandbox-signin', mode: 'live' };
const connectionsOf = async (s: Service, store: string) => (await s.db.query(`SELECT id FROM supplier_connections WHERE store_id = $1`, [store])).rows;

test('attack: without PUBLIC_BASE_URL a sign-in started with Host: evil.example is refused 409 publicBaseUrlRequired, nothing saved', async () => {
  const plain = await startService({ label: 'signin_nopublic', sandbox });
  try {
    const dev = await newDeveloper(plain, { plan: 'pro' });
    const store = await createStore(plain, dev.key);
    const res = await postWithHost(plain, startPath(store), 'evil.example', dev.key, signInBody);
    expect([res.status, res.body.error?.code]).toEqual([409, 'publicBaseUrlRequired']);
    expect(res.body.error.message).toContain('PUBLIC_BASE_URL');
    expect(JSON.stringify(res.body)).not.toContain('evil.example');
    expect((await plain.db.query('SELECT count(*)::int AS n FROM supplier_sign_in_states WHERE store_id = $1', [store])).rows[0].n).toBe(0);
  } finally {
    await plain.stop();
  }
});

test('attack: with PUBLIC_BASE_URL, Host: evil.example changes neither the sign-in address nor the redirect_uri the supplier gets', async () => {
  const store = await createStore(svc, owner.key, 'Host header');
  const res = await postWithHost(svc, startPath(store), 'evil.example', owner.key, signInBody);
  expect(res.status).toBe(200);
  expect(new URL(res.body.result.authorizationUrl).origin).toBe(svc.baseUrl);
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, res.body.result.authorizationUrl, owner.session);
  expect(opened.status).toBe(200);
  expect(new URL(opened.supplierUrl!).searchParams.get('redirect_uri')).toBe(`${svc.baseUrl}/api/store-suppliers/oauth/callback`);
  const [row] = (await svc.db.query('SELECT redirect_uri FROM supplier_sign_in_states WHERE store_id = $1', [store])).rows;
  expect(row.redirect_uri).toBe(`${svc.baseUrl}/api/store-suppliers/oauth/callback`);
});

test('attack: a state saved with another redirect_uri (made from a forged Host) is refused at open and at the callback; the code is never exchanged', async () => {
  const store = await createStore(svc, owner.key, 'Saved elsewhere');
  const acc = await sandbox.account();
  const started = (await svc.call('POST', startPath(store), { key: owner.key, body: signInBody })).body.result;
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, started.authorizationUrl, owner.session);
  const back = new URL(await approveAt(opened.supplierUrl!, sandboxApproval(acc.accountId)));
  // What a sign-in started with `Host: evil.example` saved before the fix.
  await svc.db.query(`UPDATE supplier_sign_in_states SET redirect_uri = 'http://evil.example/api/store-suppliers/oauth/callback' WHERE store_id = $1`, [store]);
  const reopened = await openSignIn(new CookieBrowser(), svc, started.authorizationUrl, owner.session);
  expect([reopened.status, reopened.body.error?.code]).toEqual([400, 'invalidSignInState']);
  const done = await browser.navigate(back.toString());
  expect([done.status, done.body.error?.code]).toEqual([400, 'invalidSignInState']);
  expect(await connectionsOf(svc, store)).toEqual([]);
});

test('attack: a stranger holding the state cannot use it up: the browser that opened the sign-in still completes it', async () => {
  const store = await createStore(svc, owner.key, 'Not cancelled');
  const acc = await sandbox.account();
  const started = (await svc.call('POST', startPath(store), { key: owner.key, body: signInBody })).body.result;
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, started.authorizationUrl, owner.session);
  const back = await approveAt(opened.supplierUrl!, sandboxApproval(acc.accountId));
  for (const cookie of [undefined, `ss_sign_in_${new URL(started.authorizationUrl).hash.split('/')[2]}=forged`]) {
    const stranger = await fetch(back, { headers: cookie ? { Cookie: cookie } : {} });
    const body = await stranger.json();
    seen.responses.push({ route: 'GET callback', text: JSON.stringify(body) });
    expect([stranger.status, body.error?.code]).toEqual([400, 'signInBrowserMismatch']);
  }
  const done = await browser.navigate(back);
  expect([done.status, done.body.result?.supplierKey]).toEqual([201, 'sandbox-signin']);
  expect(await connectionsOf(svc, store)).toEqual([{ id: done.body.result.id }]);
});

test('over https the cookie is __Host- prefixed, Secure and Path=/; the unprefixed name completes nothing', async () => {
  const port = await freePort();
  const publicBase = `https://127.0.0.1:${port}`;
  const secure = await startService({ label: 'signin_https', sandbox, env: { PORT: String(port), PUBLIC_BASE_URL: publicBase } });
  try {
    const dev = await newDeveloper(secure, { plan: 'pro' });
    const store = await createStore(secure, dev.key);
    const acc = await sandbox.account();
    const started = (await secure.call('POST', startPath(store), { key: dev.key, body: signInBody })).body.result;
    expect(new URL(started.authorizationUrl).origin).toBe(publicBase);
    const signInId = new URL(started.authorizationUrl).hash.split('/')[2];
    const browser = new CookieBrowser();
    // The TLS proxy in front is not part of the test: the browser talks to the service behind it.
    const open = await browser.fetch(`${secure.baseUrl}/api/store-suppliers/${store}/oauth/${signInId}/open`, { method: 'POST', headers: { Authorization: `Bearer ${dev.session}` } });
    const opened = await open.json();
    expect(open.status).toBe(200);
    const cookie = open.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^__Host-ss_sign_in_${signInId}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax; Secure$`));
    expect(new URL(opened.result.supplierUrl).searchParams.get('redirect_uri')).toBe(`${publicBase}/api/store-suppliers/oauth/callback`);
    const back = new URL(await approveAt(opened.result.supplierUrl, sandboxApproval(acc.accountId)));
    const behindProxy = `${secure.baseUrl}${back.pathname}${back.search}`;
    const value = cookie.split(';')[0].split('=')[1];
    const unprefixed = await fetch(behindProxy, { headers: { Cookie: `ss_sign_in_${signInId}=${value}` } });
    expect([unprefixed.status, (await unprefixed.json()).error?.code]).toEqual([400, 'signInBrowserMismatch']);
    const done = await browser.navigate(behindProxy);
    expect([done.status, done.body.result?.supplierKey]).toEqual([201, 'sandbox-signin']);
  } finally {
    await secure.stop();
  }
});

leakScanTest();
