/**
 * An AliExpress sign-in belongs to the browser of the store member who opened it (issue 31), tried against the local
 * AliExpress-format server: a link forwarded to someone else, the AliExpress page forwarded, or the way back opened in
 * another member's browser connects nothing, and the other person's buyer account is never even asked for tokens.
 */
import { leakScanTest, newDeveloper, createStore, Developer, operatorOf, seen } from '../support/harness';
import { aliExpressApproval, approveAt, CookieBrowser, openSignIn } from '../support/sign-in-browser';
import { AeWorld, startAeWorld } from './aliexpress-support';

let world: AeWorld;

beforeAll(async () => {
  world = await startAeWorld('ae_sign_in');
});
afterAll(async () => {
  await world.close();
});

const svc = () => world.svc;

async function start(dev: Developer, storeId: string) {
  const res = await svc().call('POST', `/api/store-suppliers/${storeId}/oauth/start`, { key: dev.key, body: { supplierKey: 'aliexpress', mode: 'live' } });
  expect(res.status).toBe(200);
  return res.body.result as { authorizationUrl: string; state: string; expiresAt: string };
}

async function newBuyer(): Promise<string> {
  return (await world.control('POST', '/buyers', {})).userId;
}

/** The buyer's tokens AliExpress ever issued (an exchanged code, a refresh): none while nobody was connected with it. */
async function tokensIssued(userId: string): Promise<string[]> {
  const issued: string[] = (await world.control('GET', `/buyers/${userId}`)).issued;
  for (const t of issued) seen.secrets.add(t);
  return issued;
}

async function connectionsOf(storeId: string) {
  return (await svc().db.query(`SELECT id, account_label, created_by_account_id FROM supplier_connections WHERE store_id = $1`, [storeId])).rows;
}

async function shop(): Promise<{ owner: Developer; storeId: string }> {
  const owner = await newDeveloper(svc(), { plan: 'pro', credits: 100 });
  return { owner, storeId: await createStore(svc(), owner.key, 'Attacker Shop') };
}

test('a forwarded sign-in link: a stranger who follows it and approves with their own buyer account connects nothing to the first store', async () => {
  const attacker = await shop();
  const started = await start(attacker.owner, attacker.storeId);

  const victim = await newDeveloper(svc());
  const victimBuyer = await newBuyer();
  const victimBrowser = new CookieBrowser();
  const opened = await openSignIn(victimBrowser, svc(), started.authorizationUrl, victim.session);
  if (opened.supplierUrl) {
    const back = await approveAt(opened.supplierUrl, aliExpressApproval(victimBuyer));
    await victimBrowser.navigate(back);
  }
  expect(await connectionsOf(attacker.storeId)).toEqual([]);
  expect((await svc().call('GET', `/api/store-suppliers/${attacker.storeId}`, { key: attacker.owner.key })).body.result).toEqual([]);
  expect(await tokensIssued(victimBuyer)).toEqual([]);
  // The stranger is no member of the store: the service does not even show it exists.
  expect([opened.status, opened.body?.error?.code]).toEqual([404, 'notFound']);
  // What was forwarded is an address at this service, not AliExpress's page.
  expect(new URL(started.authorizationUrl).origin).toBe(svc().baseUrl);
});

test("a forwarded AliExpress page: the attacker opens the sign-in, sends the AliExpress page on; the way back in the victim's browser connects nothing", async () => {
  const attacker = await shop();
  const started = await start(attacker.owner, attacker.storeId);
  const attackerBrowser = new CookieBrowser();
  const opened = await openSignIn(attackerBrowser, svc(), started.authorizationUrl, attacker.owner.session);
  expect(opened.status).toBe(200);
  expect(new URL(opened.supplierUrl!).origin).toBe(world.fake.baseUrl);

  const victimBuyer = await newBuyer();
  const back = await approveAt(opened.supplierUrl!, aliExpressApproval(victimBuyer));
  const victimBrowser = new CookieBrowser();
  const landed = await victimBrowser.navigate(back);
  expect([landed.status, landed.body?.error?.code]).toEqual([400, 'signInBrowserMismatch']);
  expect(await connectionsOf(attacker.storeId)).toEqual([]);
  expect(await tokensIssued(victimBuyer)).toEqual([]);

  // Even handed the way back (code and all), the attacker's own browser cannot use it now: the sign-in is spent.
  const replay = await attackerBrowser.navigate(back);
  expect([replay.status, replay.body?.error?.code]).toEqual([400, 'invalidSignInState']);
  expect(await connectionsOf(attacker.storeId)).toEqual([]);
  expect(await tokensIssued(victimBuyer)).toEqual([]);
});

test("another member's browser cannot complete a sign-in a member opened", async () => {
  const { owner, storeId } = await shop();
  const [alice, bob] = [await newDeveloper(svc()), await newDeveloper(svc())];
  for (const m of [alice, bob]) {
    expect(
      (
        await svc().call('PUT', `/api/stores/${storeId}/staff`, {
          key: owner.key,
          body: { email: m.email, permissions: ['suppliers.manage', 'suppliers.view'] },
        })
      ).status,
    ).toBe(200);
  }
  const aliceBrowser = new CookieBrowser();
  const bobBrowser = new CookieBrowser();
  const opened = await openSignIn(aliceBrowser, svc(), (await start(owner, storeId)).authorizationUrl, alice.session);
  // Bob's browser holds a sign-in cookie of its own, for a sign-in he opened himself.
  await openSignIn(bobBrowser, svc(), (await start(owner, storeId)).authorizationUrl, bob.session);
  const aliceBuyer = await newBuyer();
  const back = await approveAt(opened.supplierUrl!, aliExpressApproval(aliceBuyer));

  const inBobs = await bobBrowser.navigate(back);
  expect([inBobs.status, inBobs.body?.error?.code]).toEqual([400, 'signInBrowserMismatch']);
  expect(await connectionsOf(storeId)).toEqual([]);
  expect(await tokensIssued(aliceBuyer)).toEqual([]);
});

test("the member's own browser completes it: the console address, open, AliExpress, back; the cookie is HttpOnly, SameSite=Lax, for the way back only, and cleared", async () => {
  const { owner, storeId } = await shop();
  const started = await start(owner, storeId);
  expect(started.authorizationUrl).toMatch(new RegExp(`^${svc().baseUrl}/console#connect/${storeId}/[0-9a-f-]{36}$`));
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc(), started.authorizationUrl, owner.session);
  expect(opened.body.result).toMatchObject({ supplierKey: 'aliexpress', mode: 'live', expiresAt: started.expiresAt });
  const supplierUrl = new URL(opened.supplierUrl!);
  expect(supplierUrl.searchParams.get('state')).toBe(started.state);
  expect(supplierUrl.searchParams.get('redirect_uri')).toBe(`${svc().baseUrl}/api/store-suppliers/oauth/callback`);
  const [cookie] = browser.held('127.0.0.1');
  expect(cookie.path).toBe('/api/store-suppliers/oauth/callback');
  expect(cookie.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
  expect(cookie.attributes).not.toContain('secure'); // plain http here; Secure whenever the service's address is https
  expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // The browser's value is kept only as its HMAC.
  const [row] = (await svc().db.query('SELECT browser_digest FROM supplier_sign_in_states WHERE nonce = $1', [started.state.split('.')[1]])).rows;
  expect(row.browser_digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(row.browser_digest).not.toBe(cookie.value);

  const buyer = await newBuyer();
  const done = await browser.navigate(await approveAt(opened.supplierUrl!, aliExpressApproval(buyer)));
  expect(done.status).toBe(201);
  expect(done.body.result).toMatchObject({ supplierKey: 'aliexpress', hasCredentials: true, createdByKeyId: owner.keyId });
  expect(await tokensIssued(buyer)).toHaveLength(2);
  expect((await connectionsOf(storeId)).map((c) => c.account_label)).toEqual([expect.stringContaining('AliExpress buyer')]);
  expect(browser.held('127.0.0.1')).toEqual([]);
});

test('the member who opened it must still manage suppliers, on a plan with dropshipping, when AliExpress sends them back', async () => {
  const { owner, storeId } = await shop();
  const staff = await newDeveloper(svc());
  const grant = (permissions: string[]) => svc().call('PUT', `/api/stores/${storeId}/staff`, { key: owner.key, body: { email: staff.email, permissions } });
  await grant(['suppliers.manage']);
  const browser = new CookieBrowser();
  const opened = await openSignIn(browser, svc(), (await start(owner, storeId)).authorizationUrl, staff.session);
  expect(opened.status).toBe(200);
  await grant(['suppliers.view']);
  const buyer = await newBuyer();
  const refused = await browser.navigate(await approveAt(opened.supplierUrl!, aliExpressApproval(buyer)));
  expect([refused.status, refused.body.error.code]).toEqual([400, 'invalidSignInState']);
  expect(refused.body.error.message).toContain('suppliers.manage');

  await grant(['suppliers.manage']);
  const again = await openSignIn(browser, svc(), (await start(owner, storeId)).authorizationUrl, staff.session);
  await operatorOf(svc()).setPlan(owner.accountId, 'starter');
  const noPlan = await browser.navigate(await approveAt(again.supplierUrl!, aliExpressApproval(buyer)));
  expect([noPlan.status, noPlan.body.error.code]).toEqual([400, 'invalidSignInState']);
  expect(await connectionsOf(storeId)).toEqual([]);
  expect(await tokensIssued(buyer)).toEqual([]);
});

leakScanTest();
