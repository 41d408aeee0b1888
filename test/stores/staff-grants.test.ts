/**
 * Staff grants (issue 31): a member grants or takes away only permissions they hold themselves; staff.manage and
 * payments.manage are the owner's to give; a key that reaches only its own records manages no staff. Each attack
 * is followed to its effect: what the grantee can then do at the payment provider route, and the store_staff row.
 */
import crypto from 'node:crypto';
import { createKey, createStore, Developer, leakScanTest, newDeveloper, Service, startService } from '../support/harness';

let svc: Service;
let owner: Developer;
let storeId: string;
/** Holds staff.manage (granted by the owner) and a few others; never payments.manage. */
let manager: Developer;
const MANAGER_PERMISSIONS = ['orders.view', 'products.view', 'staff.manage', 'suppliers.view'];

beforeAll(async () => {
  svc = await startService({ label: 'staff_grants' });
  owner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
  manager = await newDeveloper(svc);
  const res = await svc.call('PUT', `/api/stores/${storeId}/staff`, { key: owner.key, body: { email: manager.email, permissions: MANAGER_PERMISSIONS } });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await svc.stop();
});

type Credential = { key: string } | { session: string };
const byKey = (d: Developer): Credential => ({ key: d.key });
const bySession = (d: Developer): Credential => ({ session: d.session });

const setStaff = (as: Credential, email: string, permissions: string[]) =>
  svc.call('PUT', `/api/stores/${storeId}/staff`, { ...as, body: { email, permissions } });
const permissionsOf = async (accountId: string): Promise<string[] | null> =>
  (await svc.db.query('SELECT permissions FROM store_staff WHERE store_id = $1 AND account_id = $2', [storeId, accountId])).rows[0]?.permissions ?? null;
/** What payments.manage is for: whoever sets the provider's signing secret decides which payment events the store believes. */
const setProviderSecret = (d: Developer) =>
  svc.call('PUT', `/api/stores/${storeId}/payment-provider`, {
    key: d.key,
    body: { provider: 'sandbox', signingSecret: `whsec_${crypto.randomBytes(24).toString('base64')}` },
  });

function expectRefused(res: { status: number; body: any }, permissions: string[]) {
  expect([res.status, res.body?.error?.code]).toEqual([403, 'grantExceedsOwnPermissions']);
  expect(res.body.error.details.map((d: { permission: string }) => d.permission).sort()).toEqual([...permissions].sort());
}

describe.each([
  ['an API key', byKey],
  ['a session', bySession],
])('a staff member with staff.manage, calling with %s', (_label, as) => {
  test('cannot grant payments.manage to another account: refused, and the grantee still cannot set the payment provider', async () => {
    const accomplice = await newDeveloper(svc);
    const res = await setStaff(as(manager), accomplice.email, ['orders.view', 'payments.manage']);
    expectRefused(res, ['payments.manage']);
    expect(await permissionsOf(accomplice.accountId)).toBeNull();
    const effect = await setProviderSecret(accomplice);
    expect(effect.status).toBe(404);
  });

  test('cannot raise their own permissions (payments.manage, customers.view)', async () => {
    const res = await setStaff(as(manager), manager.email, [...MANAGER_PERMISSIONS, 'payments.manage', 'customers.view']);
    expectRefused(res, ['customers.view', 'payments.manage']);
    expect(await permissionsOf(manager.accountId)).toEqual(MANAGER_PERMISSIONS);
    expect((await setProviderSecret(manager)).body.error).toMatchObject({ code: 'permissionDenied', details: [{ permission: 'payments.manage' }] });
  });

  test('cannot grant staff.manage, even though they hold it: the owner gives it', async () => {
    const deputy = await newDeveloper(svc);
    const res = await setStaff(as(manager), deputy.email, ['staff.manage']);
    expectRefused(res, ['staff.manage']);
    expect(await permissionsOf(deputy.accountId)).toBeNull();
  });

  test('cannot grant a permission they do not hold (customers.view)', async () => {
    const other = await newDeveloper(svc);
    expectRefused(await setStaff(as(manager), other.email, ['orders.view', 'customers.view']), ['customers.view']);
    expect(await permissionsOf(other.accountId)).toBeNull();
  });

  test('can grant and take away what they hold', async () => {
    const helper = await newDeveloper(svc);
    const added = await setStaff(as(manager), helper.email, ['orders.view', 'suppliers.view']);
    expect(added.status).toBe(200);
    expect(added.body.result.permissions).toEqual(['orders.view', 'suppliers.view']);
    const lowered = await setStaff(as(manager), helper.email, ['suppliers.view']);
    expect(lowered.status).toBe(200);
    expect(await permissionsOf(helper.accountId)).toEqual(['suppliers.view']);
    const removed = await svc.call('DELETE', `/api/stores/${storeId}/staff/${helper.accountId}`, as(manager));
    expect(removed.status).toBe(204);
    expect(await permissionsOf(helper.accountId)).toBeNull();
  });

  test('cannot take away, or remove a member holding, what they do not hold; a member keeps what the owner gave', async () => {
    const cashier = await newDeveloper(svc);
    expect((await setStaff(byKey(owner), cashier.email, ['orders.view', 'payments.manage'])).status).toBe(200);
    // Keeping payments.manage as it is while changing what they hold: allowed; dropping it: refused.
    expect((await setStaff(as(manager), cashier.email, ['orders.view', 'payments.manage', 'suppliers.view'])).status).toBe(200);
    expectRefused(await setStaff(as(manager), cashier.email, ['orders.view']), ['payments.manage']);
    expectRefused(await svc.call('DELETE', `/api/stores/${storeId}/staff/${cashier.accountId}`, as(manager)), ['payments.manage']);
    expect(await permissionsOf(cashier.accountId)).toEqual(['orders.view', 'payments.manage', 'suppliers.view']);
  });

  test('cannot lower or remove the owner', async () => {
    const lower = await setStaff(as(manager), owner.email, ['orders.view']);
    expect([lower.status, lower.body.error.code]).toEqual([400, 'ownerIsNotStaff']);
    const remove = await svc.call('DELETE', `/api/stores/${storeId}/staff/${owner.accountId}`, as(manager));
    expect(remove.status).toBe(404);
    const stores = await svc.call('GET', '/api/stores', { key: owner.key });
    expect(stores.body.result.find((s: { id: string }) => s.id === storeId)).toMatchObject({ role: 'owner', permissions: null });
    expect((await setProviderSecret(owner)).status).toBe(200);
  });
});

test('the owner grants staff.manage and payments.manage, with a key or a session', async () => {
  const a = await newDeveloper(svc);
  const b = await newDeveloper(svc);
  expect((await setStaff(byKey(owner), a.email, ['payments.manage', 'staff.manage'])).status).toBe(200);
  expect((await setStaff(bySession(owner), b.email, ['payments.manage'])).status).toBe(200);
  expect((await setProviderSecret(b)).status).toBe(200);
});

test('a key that reaches only its own records manages no staff: a staff grant reaches every record of the store', async () => {
  const own = await createKey(svc, owner.session, 'own records only', 'own');
  const friend = await newDeveloper(svc);
  for (const res of [
    await setStaff({ key: own.key }, friend.email, ['customers.view', 'orders.view']),
    await svc.call('GET', `/api/stores/${storeId}/staff`, { key: own.key }),
    await svc.call('DELETE', `/api/stores/${storeId}/staff/${manager.accountId}`, { key: own.key }),
  ]) {
    expect([res.status, res.body.error.code]).toEqual([403, 'recordScopeTooNarrow']);
  }
  expect(await permissionsOf(friend.accountId)).toBeNull();
  expect(await permissionsOf(manager.accountId)).toEqual(MANAGER_PERMISSIONS);
  // The owner's account-wide key and session still manage staff.
  expect((await svc.call('GET', `/api/stores/${storeId}/staff`, { key: owner.key })).status).toBe(200);
});

leakScanTest();
