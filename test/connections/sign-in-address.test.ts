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
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method: 'POST',
        path,
        headers: { Host: host, 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => {
          seen.responses.push({ route: `POST ${path}`, text });
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
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

test('attack: a state saved with another redirect_uri (made from a forged Host) is refused at open and at the callback; nothing is connected', async () => {
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

/** The callback as a browser without the sign-in's cookie (or with a forged one) calls it. */
async function strangerAt(state: string, code: string | null, cookie?: string) {
  const url = `${svc.baseUrl}/api/store-suppliers/oauth/callback?state=${encodeURIComponent(state)}${code === null ? '' : `&code=${encodeURIComponent(code)}`}`;
  const res = await fetch(url, { headers: cookie ? { Cookie: cookie } : {} });
  const body = await res.json();
  seen.responses.push({ route: 'GET /api/store-suppliers/oauth/callback', text: JSON.stringify(body) });
  return [res.status, body.error?.code];
}

test('attack: a stranger holding the state cannot use it up: the browser that opened the sign-in still completes it', async () => {
  const store = await createStore(svc, owner.key, 'Not cancelled');
  const acc = await sandbox.account();
  const started = (await svc.call('POST', startPath(store), { key: owner.key, body: signInBody })).body.result;
  const signInId = new URL(started.authorizationUrl).hash.split('/')[2];
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, started.authorizationUrl, owner.session);
  // Before and after the member approved at the supplier: no cookie, a forged one, a made-up code.
  expect(await strangerAt(started.state, null)).toEqual([400, 'signInBrowserMismatch']);
  const back = await approveAt(opened.supplierUrl!, sandboxApproval(acc.accountId));
  expect(await strangerAt(started.state, 'made-up', `ss_sign_in_${signInId}=forged`)).toEqual([400, 'signInBrowserMismatch']);
  expect(await strangerAt(started.state, null)).toEqual([400, 'signInBrowserMismatch']);
  const done = await browser.navigate(back);
  expect([done.status, done.body.result?.supplierKey]).toEqual([201, 'sandbox-signin']);
  expect(await connectionsOf(svc, store)).toEqual([{ id: done.body.result.id }]);
});

test('attack: a code that came back in another browser is never exchanged, not even by the browser that opened the sign-in', async () => {
  const store = await createStore(svc, owner.key, 'Forwarded code');
  const victims = await sandbox.account();
  const started = (await svc.call('POST', startPath(store), { key: owner.key, body: signInBody })).body.result;
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, started.authorizationUrl, owner.session);
  const back = new URL(await approveAt(opened.supplierUrl!, sandboxApproval(victims.accountId)));
  // The supplier page was forwarded: the victim approved, and their browser came back here.
  expect(await strangerAt(started.state, back.searchParams.get('code'))).toEqual([400, 'signInBrowserMismatch']);
  // Handed the way back afterwards, the opener's browser cannot use the victim's code: the sign-in is spent.
  const replay = await browser.navigate(back.toString());
  expect([replay.status, replay.body.error?.code]).toEqual([400, 'invalidSignInState']);
  expect(await connectionsOf(svc, store)).toEqual([]);
  // The sandbox supplier still holds the code unexchanged.
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

test('twenty codes from other browsers use the state up (the list of refused codes cannot be filled to make room)', async () => {
  const store = await createStore(svc, owner.key, 'Flooded');
  const acc = await sandbox.account();
  const started = (await svc.call('POST', startPath(store), { key: owner.key, body: signInBody })).body.result;
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc, started.authorizationUrl, owner.session);
  const back = await approveAt(opened.supplierUrl!, sandboxApproval(acc.accountId));
  for (let i = 0; i < 20; i++) expect(await strangerAt(started.state, `junk-${i}`)).toEqual([400, 'signInBrowserMismatch']);
  const done = await browser.navigate(back);
  expect([done.status, done.body.error?.code]).toEqual([400, 'invalidSignInState']);
  expect(await connectionsOf(svc, store)).toEqual([]);
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
    const open = await browser.fetch(`${secure.baseUrl}/api/store-suppliers/${store}/oauth/${signInId}/open`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${dev.session}` },
    });
    const opened = await open.json();
    expect(open.status).toBe(200);
    const cookie = open.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^__Host-ss_sign_in_${signInId}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax; Secure$`));
    expect(new URL(opened.result.supplierUrl).searchParams.get('redirect_uri')).toBe(`${publicBase}/api/store-suppliers/oauth/callback`);
    const back = new URL(await approveAt(opened.result.supplierUrl, sandboxApproval(acc.accountId)));
    const behindProxy = `${secure.baseUrl}${back.pathname}${back.search}`;
    const value = cookie.split(';')[0].split('=')[1];
    // The unprefixed name, with the right value (and a code of its own: a code that came back without the cookie is never used).
    const unprefixed = await fetch(`${secure.baseUrl}${back.pathname}?state=${encodeURIComponent(started.state)}&code=other`, {
      headers: { Cookie: `ss_sign_in_${signInId}=${value}` },
    });
    expect([unprefixed.status, (await unprefixed.json()).error?.code]).toEqual([400, 'signInBrowserMismatch']);
    const done = await browser.navigate(behindProxy);
    expect([done.status, done.body.result?.supplierKey]).toEqual([201, 'sandbox-signin']);
  } finally {
    await secure.stop();
  }
});

leakScanTest();
