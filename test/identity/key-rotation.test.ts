/**
 * Authentication 10, over plain HTTP (the console test does the same in a browser): create a new key, move the
 * integration to it, see the new key's last-used time move, then revoke the old key.
 */
import { createKey, eventually, leakScanTest, newDeveloper, Service, startService, createStore } from '../support/harness';

let svc: Service;

beforeAll(async () => {
  // Last-used is written at most once an interval; one second here, so the test sees it move twice.
  svc = await startService({ label: 'key-rotation', env: { KEY_LAST_USED_INTERVAL_SECONDS: '1' } });
});
afterAll(async () => {
  await svc.stop();
});

test('rotation: new key, move the integration, last-used moves on the new key, old key revoked and refused at once', async () => {
  const owner = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, owner.key);
  const integration = (key: string) => svc.call('GET', `/api/store-suppliers/${storeId}`, { key });
  const listed = async (id: string) =>
    (await svc.call('GET', '/api/api-keys', { session: owner.session })).body.result.find((k: { id: string }) => k.id === id);

  // The integration runs on the old key.
  expect((await integration(owner.key)).status).toBe(200);
  const oldUsed = (await eventually(async () => (await listed(owner.keyId))?.lastUsedAt ?? undefined, 20000, "the old key's last use")) as string;

  // 1. A new key, made while signed in.
  const fresh = await createKey(svc, owner.session, 'rotated', 'account');
  expect((await listed(fresh.id)).lastUsedAt).toBeNull();

  // 2. Move the integration; 3. the new key's last-used time moves, first from nothing, then forward.
  expect((await integration(fresh.key)).status).toBe(200);
  const first = (await eventually(async () => (await listed(fresh.id))?.lastUsedAt ?? undefined, 20000, "the new key's first use")) as string;
  const second = (await eventually(
    async () => {
      expect((await integration(fresh.key)).status).toBe(200);
      const at = (await listed(fresh.id)).lastUsedAt as string;
      return at > first ? at : undefined;
    },
    20000,
    "the new key's last use to move on",
  )) as string;
  expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
  // The old key was not used meanwhile: its time stayed where it was.
  expect((await listed(owner.keyId)).lastUsedAt).toBe(oldUsed);

  // 4. Revoke the old key: refused on its very next request, with the same body as an unknown key.
  const revoked = await svc.call('DELETE', `/api/api-keys/${owner.keyId}`, { session: owner.session });
  expect(revoked.body.result).toMatchObject({ id: owner.keyId, revoked: true, revokedAt: expect.any(String) });
  const refused = await integration(owner.key);
  const unknown = await integration('ssk_' + 'Q'.repeat(43));
  expect([refused.status, refused.text]).toEqual([401, unknown.text]);
  const assistant = await svc.call('POST', '/api/mcp', {
    key: owner.key,
    headers: { Accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  expect(assistant.status).toBe(401);
  // The new key carries on, and the old one shows revoked, its last use unchanged.
  expect((await integration(fresh.key)).status).toBe(200);
  expect(await listed(owner.keyId)).toMatchObject({ revoked: true, lastUsedAt: oldUsed });
});

leakScanTest();
