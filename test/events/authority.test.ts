/**
 * Whose authority a subscription acts on: its owner's, as it is when a delivery goes out. Changing where it sends or
 * its secret takes every permission its data needs and makes the changer its owner; an owner who loses the store
 * switches it off. Each attack as a store's staff member would try it, over HTTP, with real receivers.
 */
import { Developer, eventually, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, submit } from '../support/orders';
import { Received, Receiver } from '../support/receiver';
import { FAST_EVENTS, receiverPool, subscribe, verifiedEvents } from './support';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop; // sandbox balance 0: a payNow submit pauses with insufficientBalance
const receivers = receiverPool();

/** Every permission the data of a `*` subscription needs. */
const ALL_DATA = ['suppliers.view', 'suppliers.manage', 'customers.view', 'orders.view', 'suppliers.import'];

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'events-authority', sandbox, privateTargets: true, env: { ...FAST_EVENTS, EVENT_OWNER_CHECK_SECONDS: '1' } });
  shop = await openShop(svc, sandbox, { balanceMinor: 0, page: 7 });
}, 120000);
afterAll(async () => {
  await receivers.downAll();
  await svc.stop();
  await sandbox.close();
});

const base = () => `/api/store-suppliers/${shop.storeId}/event-subscriptions`;
const receiver = () => receivers.start();
async function staff(permissions: string[]): Promise<Developer> {
  const dev = await newDeveloper(svc);
  await grant(dev, permissions);
  return dev;
}
async function grant(dev: Developer, permissions: string[]) {
  const res = await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: dev.email, permissions } });
  expect(res.status).toBe(200);
}
async function pause(): Promise<any> {
  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id, { payNow: true });
  expect(res.status).toBeLessThan(300);
  return res.body.result;
}
const pauseIn = (got: Received[], soId: string) => got.find((x) => x.json?.type === 'supplierOrder.paused' && x.json.data._id === soId);
const pausedOf = (r: Receiver, soId: string) => pauseIn(r.received, soId);
const ownerOf = async (id: string) =>
  (await svc.db.query('SELECT owner_account_id AS account, owner_key_id AS key FROM event_subscriptions WHERE id = $1', [id])).rows[0];

test("a staff member with only suppliers.view and suppliers.manage can neither point the owner's subscription at their receiver nor rotate its secret; the owner's receiver keeps getting events", async () => {
  const mine = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, mine.url);
  const mallory = await staff(['suppliers.view', 'suppliers.manage']);
  const theirs = await receiver();

  const moved = await svc.call('PATCH', `${base()}/${sub.id}`, { key: mallory.key, body: { url: theirs.url } });
  expect([moved.status, moved.body.error?.code]).toEqual([403, 'subscriptionOwnerPermissionsMissing']);
  expect(moved.body.error.details.map((d: any) => d.permission).sort()).toEqual(['customers.view', 'orders.view', 'suppliers.import']);
  const rotated = await svc.call('POST', `${base()}/${sub.id}/rotate-secret`, { key: mallory.key, body: {} });
  expect([rotated.status, rotated.body.error?.code]).toEqual([403, 'subscriptionOwnerPermissionsMissing']);
  expect(JSON.stringify(rotated.body)).not.toContain('whsec_');
  // Both at once, or with the types narrowed to what Mallory may read while the url stays: still the owner's.
  const both = await svc.call('PATCH', `${base()}/${sub.id}`, { key: mallory.key, body: { url: theirs.url, eventTypes: ['supplierOrder.paused'] } });
  expect([both.status, both.body.error?.details.map((d: any) => d.permission)]).toEqual([403, ['customers.view']]);
  expect(await ownerOf(sub.id)).toEqual({ account: shop.owner.accountId, key: shop.owner.keyId });

  const so = await pause();
  await mine.until((r) => !!pauseIn(r, so._id), 20000, "the pause at the owner's receiver");
  const [event] = await verifiedEvents([pausedOf(mine, so._id)!], sub.secret);
  expect(event.data.destination).toMatchObject({ name: 'Ada Lovelace' });
  expect(theirs.received).toEqual([]);
  const read = await svc.call('GET', `${base()}/${sub.id}`, { key: mallory.key });
  expect(read.body.result).toMatchObject({ url: mine.url, enabled: true });
});

test('a member holding every permission the data needs takes it over: deliveries follow them, rendered for their access at delivery (no destination once they lose customers.view)', async () => {
  const before = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, before.url);
  const trent = await staff(ALL_DATA);
  const theirs = await receiver();
  const moved = await svc.call('PATCH', `${base()}/${sub.id}`, { key: trent.key, body: { url: theirs.url } });
  expect(moved.status).toBe(200);
  expect(moved.body.result.url).toBe(theirs.url);
  expect(await ownerOf(sub.id)).toEqual({ account: trent.accountId, key: trent.keyId });
  // The answer names its new owner, so the store's owner sees who it acts for.
  expect(moved.body.result.owner).toEqual({ accountId: trent.accountId, keyId: trent.keyId });
  const listed = await svc.call('GET', `${base()}/${sub.id}`, { key: shop.owner.key });
  expect(listed.body.result.owner).toEqual({ accountId: trent.accountId, keyId: trent.keyId });

  const first = await pause();
  await theirs.until((r) => !!pauseIn(r, first._id), 20000, "the pause at the new owner's receiver");
  expect(pausedOf(theirs, first._id)!.json.data.destination).toMatchObject({ name: 'Ada Lovelace' });
  expect(before.received.filter((x) => x.json?.data?._id === first._id)).toEqual([]);

  await grant(
    trent,
    ALL_DATA.filter((p) => p !== 'customers.view'),
  );
  const second = await pause();
  await theirs.until((r) => !!pauseIn(r, second._id), 20000, 'the second pause');
  const data = pausedOf(theirs, second._id)!.json.data;
  expect(data.destinationRedacted).toBe(true);
  expect(data).not.toHaveProperty('destination');
});

test('rotating the secret takes it over too: the new secret signs for the new owner, the old one no longer alone', async () => {
  const r = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url, ['supplierOrder.paused']);
  const peggy = await staff(['suppliers.view', 'suppliers.manage', 'customers.view']);
  const rotated = await svc.call('POST', `${base()}/${sub.id}/rotate-secret`, { key: peggy.key, body: { keepOldSeconds: 0 } });
  expect(rotated.status).toBe(200);
  seen.secrets.add(rotated.body.result.secret);
  expect(await ownerOf(sub.id)).toEqual({ account: peggy.accountId, key: peggy.keyId });
  // The subscription's data is supplier orders only: Peggy needs neither orders.view nor suppliers.import for it.
  const so = await pause();
  await r.until((got) => !!pauseIn(got, so._id), 20000, 'the pause');
  const [event] = await verifiedEvents([pausedOf(r, so._id)!], rotated.body.result.secret);
  expect(event.data.destination).toMatchObject({ name: 'Ada Lovelace' });
  await expect(verifiedEvents([pausedOf(r, so._id)!], sub.secret)).rejects.toMatchObject({ reason: 'invalidSignature' });
});

test('an owner removed from the store: the subscription is switched off with the reason and sends nothing more; it never falls back to its creator', async () => {
  const r = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url, ['supplierOrder.paused']);
  const trudy = await staff(ALL_DATA);
  expect((await svc.call('PATCH', `${base()}/${sub.id}`, { key: trudy.key, body: { url: r.url } })).status).toBe(200);
  const first = await pause();
  await r.until((got) => !!pauseIn(got, first._id), 20000, 'the pause while Trudy is staff');

  expect((await svc.call('DELETE', `/api/stores/${shop.storeId}/staff/${trudy.accountId}`, { key: shop.owner.key })).status).toBe(204);
  const count = r.received.length;
  await pause();
  const off = await eventually(
    async () => {
      const s = (await svc.call('GET', `${base()}/${sub.id}`, { key: shop.owner.key })).body.result;
      return s.enabled ? undefined : s;
    },
    20000,
    'the switch-off',
  );
  expect(off.disabledReason).toMatchObject({ code: 'ownerAccessEnded', message: expect.any(String) });
  await pause();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(r.received.length).toBe(count);
  // Switching it on again does not bring back a departed owner's authority: take it over first.
  const on = await svc.call('PATCH', `${base()}/${sub.id}`, { key: shop.owner.key, body: { enabled: true } });
  expect([on.status, on.body.error?.code]).toEqual([409, 'subscriptionOwnerAccessEnded']);
  const taken = await svc.call('POST', `${base()}/${sub.id}/rotate-secret`, { key: shop.owner.key, body: { keepOldSeconds: 0 } });
  expect(taken.status).toBe(200);
  seen.secrets.add(taken.body.result.secret);
  expect((await svc.call('PATCH', `${base()}/${sub.id}`, { key: shop.owner.key, body: { enabled: true } })).body.result).toMatchObject({
    enabled: true,
    disabledReason: null,
  });
});

test('a revoked key that owns a subscription switches it off with keyRevoked', async () => {
  const r = await receiver();
  const victor = await staff(ALL_DATA);
  const sub = await subscribe(svc, victor.key, shop.storeId, r.url, ['supplierOrder.paused']);
  expect((await svc.call('DELETE', `/api/api-keys/${victor.keyId}`, { session: victor.session })).status).toBe(200);
  await pause();
  const off = await eventually(
    async () => {
      const s = (await svc.call('GET', `${base()}/${sub.id}`, { key: shop.owner.key })).body.result;
      return s.enabled ? undefined : s;
    },
    20000,
    'the switch-off',
  );
  expect(off.disabledReason.code).toBe('keyRevoked');
  expect(r.received).toEqual([]);
});

test('with nothing to send, an owner removed from the store or a revoked owning key is switched off at once, the reason shown', async () => {
  const quiet = ['connection.circuitOpened'];
  const removedOwner = await staff(ALL_DATA);
  const byRemoved = await subscribe(svc, removedOwner.key, shop.storeId, (await receiver()).url, quiet);
  const revokedOwner = await staff(ALL_DATA);
  const byRevoked = await subscribe(svc, revokedOwner.key, shop.storeId, (await receiver()).url, quiet);
  const kept = await subscribe(svc, shop.owner.key, shop.storeId, (await receiver()).url, quiet);

  expect((await svc.call('DELETE', `/api/stores/${shop.storeId}/staff/${removedOwner.accountId}`, { key: shop.owner.key })).status).toBe(204);
  expect((await svc.call('DELETE', `/api/api-keys/${revokedOwner.keyId}`, { session: revokedOwner.session })).status).toBe(200);
  const read = async (id: string) => (await svc.call('GET', `${base()}/${id}`, { key: shop.owner.key })).body.result;
  const off = await eventually(
    async () => {
      const [a, b] = [await read(byRemoved.id), await read(byRevoked.id)];
      return a.enabled || b.enabled ? undefined : [a, b];
    },
    15000,
    'both switched off',
  );
  expect(off[0].disabledReason).toMatchObject({ code: 'ownerAccessEnded', message: expect.stringMatching(/may no longer read/) });
  expect(off[1].disabledReason).toMatchObject({ code: 'keyRevoked', message: expect.stringMatching(/revoked/) });
  expect(Date.parse(off[0].disabledReason.at)).not.toBeNaN();
  // The store owner's own subscription, and a member who only lost an unrelated permission, are left alone.
  expect(await read(kept.id)).toMatchObject({ enabled: true, disabledReason: null });
});

test("a member who is not the owner may change the types, description and switch, which still deliver to the owner's address with the owner's access", async () => {
  const r = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url, ['connection.healthChanged']);
  const walter = await staff(['suppliers.view', 'suppliers.manage']);
  const changed = await svc.call('PATCH', `${base()}/${sub.id}`, { key: walter.key, body: { eventTypes: ['supplierOrder.paused'], description: 'pauses' } });
  expect(changed.status).toBe(200);
  expect(await ownerOf(sub.id)).toEqual({ account: shop.owner.accountId, key: shop.owner.keyId });
  const so = await pause();
  await r.until((got) => !!pauseIn(got, so._id), 20000, 'the pause');
  // Rendered for the owner, who may read the destination: it went to the owner's own address.
  expect(pausedOf(r, so._id)!.json.data.destination).toMatchObject({ name: 'Ada Lovelace' });
});

leakScanTest();
