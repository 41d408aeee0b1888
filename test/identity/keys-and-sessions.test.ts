import { createKey, leakScanTest, newDeveloper, operatorOf, seen, Service, startService } from '../support/harness';

let svc: Service;
beforeAll(async () => {
  svc = await startService({ label: 'keys' });
});
afterAll(async () => {
  await svc.stop();
});

describe('accounts and sessions', () => {
  test('sign up, sign in, sign out; a wrong password and an unknown e-mail get the same answer', async () => {
    const password = 'a-long-password-1';
    seen.secrets.add(password);
    const up = await svc.call('POST', '/api/auth/sign-up', { body: { email: 'Owner@Example.test', password, name: 'Owner' } });
    expect(up.status).toBe(201);
    expect(up.body.result.account).toMatchObject({ email: 'Owner@Example.test', plan: 'free', isDeveloper: false, credits: 100 });
    seen.secrets.add(up.body.result.sessionToken);

    const again = await svc.call('POST', '/api/auth/sign-up', { body: { email: 'owner@example.test', password, name: 'Dup' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('emailTaken');

    const wrong = await svc.call('POST', '/api/auth/sign-in', { body: { email: 'owner@example.test', password: 'not-the-password' } });
    const unknown = await svc.call('POST', '/api/auth/sign-in', { body: { email: 'nobody@example.test', password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.text).toBe(wrong.text);

    const signIn = await svc.call('POST', '/api/auth/sign-in', { body: { email: 'owner@example.test', password } });
    expect(signIn.status).toBe(200);
    const session = signIn.body.result.sessionToken;
    seen.secrets.add(session);
    expect((await svc.call('GET', '/api/account', { session })).body.result.email).toBe('Owner@Example.test');

    const [row] = (await svc.db.query('SELECT password_hash FROM accounts WHERE lower(email) = $1', ['owner@example.test'])).rows;
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(password);

    expect((await svc.call('POST', '/api/auth/sign-out', { session })).status).toBe(204);
    const after = await svc.call('GET', '/api/account', { session });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthenticated');
  });

  test('upgrading to Developer is free and immediate and leaves plan and credits unchanged', async () => {
    const up = await svc.call('POST', '/api/auth/sign-up', { body: { email: 'up@example.test', password: 'another-password-2', name: 'U' } });
    seen.secrets.add('another-password-2');
    const session = up.body.result.sessionToken;
    seen.secrets.add(session);
    await operatorOf(svc).setPlan(up.body.result.account.id, 'pro');
    const before = (await svc.call('GET', '/api/account', { session })).body.result;
    const refused = await svc.call('POST', '/api/api-keys', { session, body: { name: 'k' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('developerAccountRequired');
    const upgraded = await svc.call('POST', '/api/account/developer', { session });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.result).toMatchObject({ isDeveloper: true, plan: before.plan, credits: before.credits });
    expect((await svc.call('POST', '/api/api-keys', { session, body: { name: 'k' } })).status).toBe(201);
  });
});

describe('API keys', () => {
  test('create, list masked, copy again, rename, change scope, revoke', async () => {
    const dev = await newDeveloper(svc);
    const created = await svc.call('POST', '/api/api-keys', { session: dev.session, body: { name: 'Zapier' } });
    expect(created.status).toBe(201);
    const full: string = created.body.result.key;
    seen.secrets.add(full);
    expect(full).toMatch(/^ssk_[0-9A-Za-z]{43,}$/);
    expect(created.body.result.apiKey).toMatchObject({ name: 'Zapier', recordScope: 'own', revoked: false, lastUsedAt: null });

    const list = await svc.call('GET', '/api/api-keys', { session: dev.session });
    expect(list.status).toBe(200);
    const listed = list.body.result.find((k: { id: string }) => k.id === created.body.result.apiKey.id);
    expect(listed.maskedKey).toBe(`ssk_••••••••${full.slice(-4)}`);
    expect(list.text).not.toContain(full);

    const copy = await svc.call('GET', `/api/api-keys/${listed.id}/secret`, { session: dev.session });
    expect(copy.body.result.key).toBe(full);

    const [row] = (await svc.db.query('SELECT key_sealed, key_digest FROM api_keys WHERE id = $1', [listed.id])).rows;
    expect(row.key_sealed).not.toContain(full);
    expect(Buffer.isBuffer(row.key_digest)).toBe(true);

    const renamed = await svc.call('PATCH', `/api/api-keys/${listed.id}`, { session: dev.session, body: { name: 'Make' } });
    expect(renamed.body.result.name).toBe('Make');
    const scoped = await svc.call('PATCH', `/api/api-keys/${listed.id}`, { session: dev.session, body: { recordScope: 'account' } });
    expect(scoped.body.result.recordScope).toBe('account');
    const current = await svc.call('GET', '/api/api-key/current', { key: full });
    expect(current.body.result.key).toMatchObject({ name: 'Make', recordScope: 'account' });

    const revoked = await svc.call('DELETE', `/api/api-keys/${listed.id}`, { session: dev.session });
    expect(revoked.body.result.revoked).toBe(true);
    expect((await svc.call('GET', `/api/api-keys/${listed.id}/secret`, { session: dev.session })).status).toBe(409);
  });

  test('another account cannot see, copy or revoke my key', async () => {
    const a = await newDeveloper(svc);
    const b = await newDeveloper(svc);
    for (const [method, path] of [
      ['GET', `/api/api-keys/${a.keyId}/secret`],
      ['PATCH', `/api/api-keys/${a.keyId}`],
      ['DELETE', `/api/api-keys/${a.keyId}`],
    ]) {
      const res = await svc.call(method, path, { session: b.session, body: method === 'PATCH' ? { name: 'x' } : undefined });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('notFound');
    }
    expect((await svc.call('GET', '/api/api-key/current', { key: a.key })).status).toBe(200);
  });

  test('an API key cannot manage keys: 403 keysCannotManageKeys on every key route', async () => {
    const dev = await newDeveloper(svc);
    const cases: Array<[string, string, unknown?]> = [
      ['POST', '/api/api-keys', { name: 'x' }],
      ['GET', '/api/api-keys'],
      ['GET', `/api/api-keys/${dev.keyId}/secret`],
      ['PATCH', `/api/api-keys/${dev.keyId}`, { name: 'y' }],
      ['DELETE', `/api/api-keys/${dev.keyId}`],
    ];
    for (const [method, path, body] of cases) {
      const res = await svc.call(method, path, { key: dev.key, body });
      expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 403, 'keysCannotManageKeys']);
    }
    const [row] = (await svc.db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [dev.accountId])).rows;
    expect(row.n).toBe(1);
  });

  test('revocation takes effect on the very next request, with the same 401 body as unknown and missing keys', async () => {
    const dev = await newDeveloper(svc);
    expect((await svc.call('GET', '/api/api-key/current', { key: dev.key })).status).toBe(200);
    await svc.call('DELETE', `/api/api-keys/${dev.keyId}`, { session: dev.session });
    const revoked = await svc.call('GET', '/api/api-key/current', { key: dev.key });
    const unknown = await svc.call('GET', '/api/api-key/current', { key: 'ssk_' + 'A'.repeat(43) });
    const garbage = await svc.call('GET', '/api/api-key/current', { key: 'nonsense' });
    const missing = await svc.call('GET', '/api/api-key/current');
    for (const r of [revoked, unknown, garbage, missing]) {
      expect(r.status).toBe(401);
      expect(r.text).toBe(revoked.text);
    }
    expect(revoked.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
  });

  test('lastUsedAt is written at most once per 5 minutes', async () => {
    const dev = await newDeveloper(svc);
    const first = await svc.call('GET', '/api/api-key/current', { key: dev.key });
    const t1 = first.body.result.key.lastUsedAt;
    expect(t1).not.toBeNull();
    await new Promise((r) => setTimeout(r, 30));
    const second = await svc.call('GET', '/api/api-key/current', { key: dev.key });
    expect(second.body.result.key.lastUsedAt).toBe(t1);

    // Four minutes ago: still inside the window, so not written.
    await svc.db.query(`UPDATE api_keys SET last_used_at = now() - interval '4 minutes' WHERE id = $1`, [dev.keyId]);
    const [before] = (await svc.db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [dev.keyId])).rows;
    await svc.call('GET', '/api/api-key/current', { key: dev.key });
    const [unchanged] = (await svc.db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [dev.keyId])).rows;
    expect(unchanged.last_used_at.getTime()).toBe(before.last_used_at.getTime());

    // Six minutes ago: outside the window, so written once.
    await svc.db.query(`UPDATE api_keys SET last_used_at = now() - interval '6 minutes' WHERE id = $1`, [dev.keyId]);
    await Promise.all(Array.from({ length: 10 }, () => svc.call('GET', '/api/api-key/current', { key: dev.key })));
    const [after] = (await svc.db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [dev.keyId])).rows;
    expect(Date.now() - after.last_used_at.getTime()).toBeLessThan(60_000);
  });

  test('GET /api/api-key/current answers the key, its owner, the plan and the credits', async () => {
    const dev = await newDeveloper(svc, { plan: 'pro', credits: 50 });
    const res = await svc.call('GET', '/api/api-key/current', { key: dev.key });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({
      key: expect.objectContaining({ id: dev.keyId, name: 'test key', recordScope: 'account', maskedKey: `ssk_••••••••${dev.key.slice(-4)}` }),
      owner: { accountId: dev.accountId, email: dev.email, name: 'Test Developer', isDeveloper: true },
      plan: { name: 'pro', includesDropshipping: true },
      credits: { available: 150 },
      assistantLink: { url: `${svc.baseUrl}/api/mcp`, transport: 'streamable-http', headers: { 'X-API-Key': `ssk_••••••••${dev.key.slice(-4)}` } },
    });
    const withSession = await svc.call('GET', '/api/api-key/current', { session: dev.session });
    expect(withSession.status).toBe(400);
    expect(withSession.body.error.code).toBe('apiKeyRequired');
  });

  test('a second key of the same account works independently of the first', async () => {
    const dev = await newDeveloper(svc);
    const second = await createKey(svc, dev.session, 'second');
    await svc.call('DELETE', `/api/api-keys/${dev.keyId}`, { session: dev.session });
    expect((await svc.call('GET', '/api/api-key/current', { key: second.key })).status).toBe(200);
    expect((await svc.call('GET', '/api/api-key/current', { key: dev.key })).status).toBe(401);
  });
});

leakScanTest();
