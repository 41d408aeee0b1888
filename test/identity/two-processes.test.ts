import { createStore, leakScanTest, newDeveloper, Service, startService } from '../support/harness';

// Two API processes on one database, as when the service is scaled out: nothing about a key is cached,
// so a revocation made through one is in force on the very next request through the other.
let a: Service;
let b: Service;
beforeAll(async () => {
  a = await startService({ label: 'two-processes' });
  b = await startService({ label: 'two-processes', databaseUrl: a.databaseUrl, role: 'api' });
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

test('a key revoked through one process is refused by the other on its next request, store routes included', async () => {
  const dev = await newDeveloper(a, { plan: 'pro' });
  const storeId = await createStore(a, dev.key);
  const before = await b.call('GET', `/api/store-products/${storeId}`, { key: dev.key });
  expect(before.status).toBe(200);
  expect(before.body.result.pagination.totalCount).toBe(0);
  expect((await b.call('GET', '/api/api-key/current', { key: dev.key })).body.result.key.id).toBe(dev.keyId);

  const revoked = await a.call('DELETE', `/api/api-keys/${dev.keyId}`, { session: dev.session });
  expect(revoked.body.result.revoked).toBe(true);

  for (const path of [`/api/store-products/${storeId}`, '/api/api-key/current']) {
    const after = await b.call('GET', path, { key: dev.key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
  }
});

test('store access removed through one process is refused by the other on its next request', async () => {
  const owner = await newDeveloper(a, { plan: 'pro' });
  const staff = await newDeveloper(a, { plan: 'pro' });
  const storeId = await createStore(a, owner.key);
  const added = await a.call('PUT', `/api/stores/${storeId}/staff`, { key: owner.key, body: { email: staff.email, permissions: ['products.view'] } });
  expect(added.status).toBe(200);
  expect((await b.call('GET', `/api/store-products/${storeId}`, { key: staff.key })).status).toBe(200);
  expect((await a.call('DELETE', `/api/stores/${storeId}/staff/${staff.accountId}`, { key: owner.key })).status).toBe(204);
  const after = await b.call('GET', `/api/store-products/${storeId}`, { key: staff.key });
  expect(after.status).toBe(404);
  expect(after.body.error.code).toBe('notFound');
});

leakScanTest();
