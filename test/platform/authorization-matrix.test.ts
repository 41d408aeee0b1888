/**
 * The authorisation matrix, generated from the route table (through the OpenAPI document it derives):
 * every route is called with no key, a revoked key, an unknown key, another store, a missing permission,
 * an owner plan without dropshipping, a record outside the key's scope and too few credits.
 */
import crypto from 'node:crypto';
import {
  createKey,
  createStore,
  Developer,
  leakScanTest,
  newDeveloper,
  operatorOf,
  Sandbox,
  seen,
  Service,
  startSandbox,
  startService,
} from '../support/harness';

interface Operation {
  operationId: string;
  method: string;
  path: string;
  security: Array<Record<string, string[]>>;
  permission?: string;
  planGated: boolean;
  creditPrice: number;
  creditCharged?: string;
}

let svc: Service;
let sandbox: Sandbox;
let ops: Operation[];
let owner: Developer;
let ownScopeKey: string;
let stranger: Developer;
let freeOwner: Developer;
let poorOwner: Developer;
let revokedKey: string;
let storeId: string;
let strangerStoreId: string;
let freeStoreId: string;
let poorStoreId: string;
const staffWithout = new Map<string, Developer>();
const fixtures: Record<string, Record<string, string>> = {};

const PERMISSIONS = [
  'suppliers.view',
  'suppliers.manage',
  'suppliers.import',
  'suppliers.orders.manage',
  'products.view',
  'products.manage',
  'orders.view',
  'orders.manage',
  'customers.view',
  'staff.manage',
  'payments.manage',
  'claims.manage',
  'returns.manage',
];

/** A body that passes validation, for routes whose credit charge must be reached. */
const validBodies: Record<string, () => unknown> = {
  createStoreProduct: () => ({
    title: 'Mug',
    variants: [{ sku: `SKU-${crypto.randomUUID()}`, title: 'Default', priceMinor: 1200, currency: 'USD', stock: 3 }],
  }),
  connectSupplier: () => ({ supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: 'sbx_live_matrix' } }),
  // Switching on is the gated half of this route.
  setSupplierConnectionEnabled: () => ({ enabled: true }),
  replaceSupplierCredentials: () => ({ credentials: { apiKey: 'sbx_live_matrix' } }),
  changeSupplierSettings: () => ({ settings: {} }),
  changeSupplierAutomation: () => ({ level: 'manual' }),
  changeSupplierRouting: () => ({ routing: { rule: 'lowestLandedCost' } }),
  startSupplierSignIn: () => ({ supplierKey: 'sandbox-signin', mode: 'live' }),
  updateStoreProduct: () => ({ title: 'Renamed' }),
  resolveSupplierProductUrl: () => ({ url: 'https://shop.sandbox-supplier.test/p/SBX-P00001' }),
  previewImport: () => ({ products: [{ supplierProductId: 'SBX-P00001' }] }),
  importSupplierProducts: () => ({ products: [{ supplierProductId: 'SBX-P00002' }] }),
  createProductLink: () => ({
    productId: crypto.randomUUID(),
    connectionId: crypto.randomUUID(),
    supplierProductId: 'SBX-P00003',
    variants: [{ storeVariantId: crypto.randomUUID(), supplierVariantId: 'SBX-P00003-V1' }],
  }),
  updateProductLink: () => ({ variants: [{ storeVariantId: crypto.randomUUID(), supplierVariantId: 'SBX-V1' }] }),
  submitOrderPart: () => ({}),
  retrySupplierOrder: () => ({}),
  rerouteSupplierOrder: () => ({}),
  markStoreOrderPaid: () => ({ reference: 'cash' }),
  acknowledgeStoreOrderPaymentAttention: () => ({ reason: 'paymentDisputed', note: 'Checked with the shopper' }),
  refundStoreOrder: () => ({ amountMinor: 100 }),
  setPaymentProvider: () => ({ provider: 'sandbox', signingSecret: `whsec_${crypto.randomBytes(24).toString('base64')}` }),
  shipStoreOrderPart: () => ({ carrier: 'Post', trackingNumber: 'T1' }),
  createStoreOrder: () => ({
    items: [{ productId: crypto.randomUUID(), variantId: crypto.randomUUID(), quantity: 1 }],
    destination: { name: 'A', line1: '1 Main', city: 'X', postalCode: '1', country: 'US' },
    paymentMethod: 'manual',
  }),
  setStaffMember: () => ({ email: 'nobody@example.test', permissions: [] }),
  acknowledgeDeliveryAttention: () => ({ reason: 'noMovement' }),
  openSupplierClaim: () => ({ reason: 'notReceived', expectation: 'reship', items: [{ itemId: crypto.randomUUID(), quantity: 1 }] }),
  recordSupplierClaimOutcome: () => ({ outcome: 'rejected', message: 'Not ours' }),
  recordSupplierOrderReturn: () => ({ reason: 'damaged', items: [{ itemId: crypto.randomUUID(), quantity: 1 }] }),
};

async function connection(key: string, store: string): Promise<string> {
  const acc = await sandbox.control('POST', '/accounts', {});
  const res = await svc.call('POST', `/api/store-suppliers/${store}`, {
    key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.result.id;
}

async function product(key: string, store: string): Promise<string> {
  const res = await svc.call('POST', `/api/store-products/${store}`, { key, body: validBodies.createStoreProduct() });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.result.id;
}

function urlFor(op: Operation, store: string, extra: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'storeId') return store;
    const value = extra[name] ?? fixtures[store]?.[name];
    if (!value) throw new Error(`The matrix has no fixture for path parameter ${name} (${op.operationId}); add one.`);
    return value;
  });
}

const acceptsKey = (op: Operation) => op.security.some((s) => 'apiKey' in s);
const sessionOnly = (op: Operation) => op.security.length > 0 && !acceptsKey(op);
/** The credential a route takes: the developer's key, or their session on a route keys may not call. */
const credentialOf = (op: Operation, dev: Developer) => (acceptsKey(op) ? { key: dev.key } : { session: dev.session });
/** Store routes a person calls: every one a key may call, and the signed-in steps (opening a supplier sign-in). */
const storeRoutes = () => ops.filter((o) => o.security.length > 0 && o.path.includes('{storeId}'));
/** What a key gets on a signed-in-only route: key management, and opening a supplier sign-in in a browser. */
const KEY_REFUSALS: Record<string, string> = { openSupplierSignIn: 'consoleSessionRequired' };

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'matrix', sandbox, publicBaseUrl: true });
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  ops = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      // The operator API has its own token and its own test (test/identity/operator-billing.test.ts).
      if (op.security.some((s: Record<string, unknown>) => 'operatorToken' in s)) continue;
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        security: op.security,
        permission: op['x-permission'],
        planGated: !!op['x-plan-gated'],
        creditPrice: op['x-credit-price'] ?? 0,
        creditCharged: op['x-credit-charged'],
      });
    }
  }
  owner = await newDeveloper(svc, { plan: 'pro', credits: 1000 });
  ownScopeKey = (await createKey(svc, owner.session, 'own scope', 'own')).key;
  const revoked = await createKey(svc, owner.session, 'to revoke', 'account');
  await svc.call('DELETE', `/api/api-keys/${revoked.id}`, { session: owner.session });
  revokedKey = revoked.key;
  stranger = await newDeveloper(svc, { plan: 'pro' });
  // Made on pro so that it can own a connection, then moved to the free plan below.
  freeOwner = await newDeveloper(svc, { plan: 'pro', credits: 1000 });
  poorOwner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
  strangerStoreId = await createStore(svc, stranger.key);
  freeStoreId = await createStore(svc, freeOwner.key);
  poorStoreId = await createStore(svc, poorOwner.key);
  for (const p of PERMISSIONS) {
    const staff = await newDeveloper(svc);
    const res = await svc.call('PUT', `/api/stores/${storeId}/staff`, {
      key: owner.key,
      body: { email: staff.email, permissions: PERMISSIONS.filter((x) => x !== p) },
    });
    expect(res.status).toBe(200);
    staffWithout.set(p, staff);
  }
  const someStaff = staffWithout.get('suppliers.view')!;
  for (const [store, key] of [
    [storeId, owner.key],
    [strangerStoreId, stranger.key],
    [freeStoreId, freeOwner.key],
  ] as const) {
    fixtures[store] = {
      productId: await product(key, store),
      keyId: owner.keyId,
      accountId: someStaff.accountId,
      id: await connection(key, store),
      supplierProductId: 'SBX-P00001',
      linkId: crypto.randomUUID(),
      jobId: crypto.randomUUID(),
      orderId: crypto.randomUUID(),
      supplierOrderId: crypto.randomUUID(),
      subscriptionId: crypto.randomUUID(),
      deliveryId: crypto.randomUUID(),
      groupKey: 'store',
      signInId: crypto.randomUUID(),
      claimId: crypto.randomUUID(),
      returnId: crypto.randomUUID(),
    };
  }
  // Records the own-scope key must not reach: a product link and an import job made with the account key.
  const imported = await svc.call('POST', `/api/store-suppliers/${storeId}/${fixtures[storeId].id}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: 'SBX-P00010' }] },
  });
  expect(imported.status).toBe(201);
  fixtures[storeId].linkId = imported.body.result.links[0].id;
  // A store order of that product, and its supplier order: records the own-scope key must not reach either.
  const bought = imported.body.result.products[0];
  const order = await svc.call('POST', `/api/store-orders/${storeId}`, {
    key: owner.key,
    body: {
      items: [{ productId: bought.id, variantId: bought.variants[0].id, quantity: 1 }],
      destination: { name: 'A', line1: '1 Main', city: 'X', postalCode: '1', country: 'US' },
      paymentMethod: 'manual',
    },
  });
  expect(order.status).toBe(201);
  fixtures[storeId].orderId = order.body.result.id;
  fixtures[storeId].groupKey = `supplier:${fixtures[storeId].id}`;
  const sent = await svc.call('POST', `/api/store-suppliers/${storeId}/orders/${order.body.result.id}/groups/${fixtures[storeId].groupKey}/submit`, {
    key: owner.key,
    body: {},
  });
  expect(sent.status).toBe(200);
  fixtures[storeId].supplierOrderId = sent.body.result._id;
  const job = await svc.call('POST', `/api/store-suppliers/${storeId}/${fixtures[storeId].id}/import`, {
    key: owner.key,
    body: { products: Array.from({ length: 51 }, () => ({ supplierProductId: 'SBX-P00010' })) },
  });
  expect(job.status).toBe(202);
  fixtures[storeId].jobId = job.body.result.id;
  const subscribed = await svc.call('POST', `/api/store-suppliers/${storeId}/event-subscriptions`, {
    key: owner.key,
    body: { url: 'https://93.184.216.34/hooks', eventTypes: ['*'] },
  });
  expect(subscribed.status).toBe(201);
  seen.secrets.add(subscribed.body.result.secret);
  fixtures[storeId].subscriptionId = subscribed.body.result.id;
  await operatorOf(svc).setPlan(freeOwner.accountId, 'free');
  // The poor owner spends its sign-up credits so that it has none left.
  await svc.db.query('UPDATE accounts SET credits = 0 WHERE id = $1', [poorOwner.accountId]);
  fixtures[poorStoreId] = {
    productId: crypto.randomUUID(),
    accountId: someStaff.accountId,
    id: crypto.randomUUID(),
    supplierProductId: 'SBX-P00001',
    linkId: crypto.randomUUID(),
    jobId: crypto.randomUUID(),
    orderId: crypto.randomUUID(),
    supplierOrderId: crypto.randomUUID(),
    subscriptionId: crypto.randomUUID(),
    deliveryId: crypto.randomUUID(),
    groupKey: `supplier:${crypto.randomUUID()}`,
    signInId: crypto.randomUUID(),
    claimId: crypto.randomUUID(),
    returnId: crypto.randomUUID(),
  };
});

afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

test('the route table has operations to test', () => {
  expect(ops.filter(acceptsKey).length).toBeGreaterThan(5);
  expect(ops.some((o) => o.permission)).toBe(true);
  // Issue 40: acknowledging a payment needing attention is a payments decision, not an orders one.
  expect(ops.find((o) => o.operationId === 'acknowledgeStoreOrderPaymentAttention')).toMatchObject({
    method: 'POST',
    path: '/api/store-orders/{storeId}/{orderId}/payment-attention/acknowledge',
    permission: 'payments.manage',
    planGated: false,
  });
});

test('no key, an unknown key and a revoked key: 401 unauthenticated with one identical body on every protected route', async () => {
  let reference: string | undefined;
  for (const op of ops.filter((o) => o.security.length > 0)) {
    for (const key of [undefined, revokedKey, 'ssk_' + 'Z'.repeat(43)]) {
      const res = await svc.call(op.method, urlFor(op, storeId), { key });
      expect([op.operationId, res.status]).toEqual([op.operationId, 401]);
      reference ??= res.text;
      expect(res.text).toBe(reference);
    }
  }
});

test('signed-in-only routes refuse API keys with 403: keysCannotManageKeys, consoleSessionRequired to open a sign-in', async () => {
  const list = ops.filter(sessionOnly);
  expect(list.length).toBeGreaterThan(0);
  expect(list.map((o) => o.operationId)).toContain('openSupplierSignIn');
  for (const op of list) {
    const res = await svc.call(op.method, urlFor(op, storeId), { key: owner.key });
    expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, 403, KEY_REFUSALS[op.operationId] ?? 'keysCannotManageKeys']);
  }
});

test('another store: 404 notFound, never revealing that it exists', async () => {
  const list = storeRoutes();
  expect(list.length).toBeGreaterThan(0);
  for (const op of list) {
    const res = await svc.call(op.method, urlFor(op, strangerStoreId), credentialOf(op, owner));
    expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, 404, 'notFound']);
  }
});

test("a staff member without the route's permission: 403 permissionDenied naming it", async () => {
  for (const op of ops.filter((o) => o.security.length > 0 && o.permission)) {
    const staff = staffWithout.get(op.permission!);
    expect(staff).toBeDefined();
    const res = await svc.call(op.method, urlFor(op, storeId), credentialOf(op, staff!));
    expect([op.operationId, res.status, res.body?.error?.code, res.body?.error?.details?.[0]?.permission]).toEqual([
      op.operationId,
      403,
      'permissionDenied',
      op.permission,
    ]);
  }
});

test("the owner's plan without dropshipping: 403 planRequired on exactly the gated routes", async () => {
  // The spec's list of gated operations that exist so far, by operation id.
  const specGated = [
    'connectSupplier',
    'startSupplierSignIn',
    'replaceSupplierCredentials',
    'changeSupplierAutomation',
    'setSupplierConnectionEnabled',
    'searchSupplierProducts',
    'getSupplierProduct',
    'resolveSupplierProductUrl',
    'previewImport',
    'importSupplierProducts',
    'createProductLink',
    // Issue 40: a link's new variant mapping or alternates read the supplier, as creating it does.
    'updateProductLink',
    'submitOrderPart',
    'retrySupplierOrder',
    // Issue 34: rerouting a paused part to a backup supplier, like retry.
    'rerouteSupplierOrder',
    'paySupplierOrder',
    // Connecting by sign-in: the member's step in their browser, as well as its start.
    'openSupplierSignIn',
  ];
  expect(
    ops
      .filter((o) => o.planGated)
      .map((o) => o.operationId)
      .sort(),
  ).toEqual(specGated.sort());
  for (const op of storeRoutes()) {
    const res = await svc.call(op.method, urlFor(op, freeStoreId), { ...credentialOf(op, freeOwner), body: validBodies[op.operationId]?.() });
    if (op.planGated) {
      expect([op.operationId, res.status, res.body?.error?.code, res.body?.error?.details?.[0]?.plan]).toEqual([op.operationId, 403, 'planRequired', 'pro']);
    } else {
      expect([op.operationId, res.body?.error?.code]).not.toEqual([op.operationId, 'planRequired']);
    }
  }
});

test("a plan-gated route answers a staff member by the owner's plan, not the staff member's own", async () => {
  const gated = ops.filter((o) => o.planGated);
  expect(gated.length).toBeGreaterThan(0);
  for (const op of gated) {
    const staff = await newDeveloper(svc, { plan: 'business' });
    await svc.call('PUT', `/api/stores/${freeStoreId}/staff`, {
      key: freeOwner.key,
      body: { email: staff.email, permissions: PERMISSIONS.filter((p) => p !== 'staff.manage') },
    });
    const res = await svc.call(op.method, urlFor(op, freeStoreId), { ...credentialOf(op, staff), body: validBodies[op.operationId]?.() });
    expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, 403, 'planRequired']);
  }
});

test("a record outside an own-scope key's records: 404 notFound", async () => {
  const list = ops.filter((o) => acceptsKey(o) && /\{(productId|id|linkId|jobId|orderId|supplierOrderId)\}/.test(o.path));
  expect(list.length).toBeGreaterThan(0);
  for (const op of list) {
    const res = await svc.call(op.method, urlFor(op, storeId), { key: ownScopeKey, body: validBodies[op.operationId]?.() });
    expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, 404, 'notFound']);
  }
  // The same record is reachable with the account-scope key of the same account.
  const get = ops.find((o) => o.operationId === 'getStoreProduct')!;
  expect((await svc.call('GET', urlFor(get, storeId), { key: owner.key })).status).toBe(200);
});

test("changing a subscription's target or rotating its secret: 403 subscriptionOwnerPermissionsMissing naming what the member lacks of its data; holding it all makes them its owner", async () => {
  const sub = `/api/store-suppliers/${storeId}/event-subscriptions/${fixtures[storeId].subscriptionId}`;
  const ownerNow = async () =>
    (await svc.db.query('SELECT owner_account_id FROM event_subscriptions WHERE id = $1', [fixtures[storeId].subscriptionId])).rows[0].owner_account_id;
  // The fixture subscribes to `*`: its data needs every permission any event type's data needs.
  for (const missing of ['suppliers.view', 'customers.view', 'orders.view', 'suppliers.import']) {
    const staff = staffWithout.get(missing)!;
    const changeTarget = await svc.call('PATCH', sub, { key: staff.key, body: { url: 'https://93.184.216.34/elsewhere' } });
    const rotateSecret = await svc.call('POST', `${sub}/rotate-secret`, { key: staff.key, body: {} });
    for (const [row, res] of [
      ['change target', changeTarget],
      ['rotate secret', rotateSecret],
    ] as const) {
      expect([row, missing, res.status, res.body?.error?.code, res.body?.error?.details]).toEqual([
        row,
        missing,
        403,
        'subscriptionOwnerPermissionsMissing',
        [expect.objectContaining({ permission: missing })],
      ]);
    }
  }
  expect(await ownerNow()).toBe(owner.accountId);
  // A member without staff.manage holds everything the data needs: the change is theirs, and so is the subscription.
  const full = staffWithout.get('staff.manage')!;
  const moved = await svc.call('PATCH', sub, { key: full.key, body: { url: 'https://93.184.216.34/elsewhere' } });
  expect([moved.status, await ownerNow()]).toEqual([200, full.accountId]);
  const back = await svc.call('POST', `${sub}/rotate-secret`, { key: owner.key, body: {} });
  expect([back.status, await ownerNow()]).toEqual([200, owner.accountId]);
  seen.secrets.add(back.body.result.secret);
});

test('staff grants: a member grants or takes away only what they hold, never staff.manage or payments.manage; with a key or a session', async () => {
  const grantee = await newDeveloper(svc);
  const put = (as: object, email: string, permissions: string[]) => svc.call('PUT', `/api/stores/${storeId}/staff`, { ...as, body: { email, permissions } });
  const OWNER_ONLY = ['staff.manage', 'payments.manage'];
  for (const p of PERMISSIONS.filter((x) => x !== 'staff.manage')) {
    const grantor = staffWithout.get(p)!; // holds staff.manage and everything but p
    for (const as of [{ key: grantor.key }, { session: grantor.session }]) {
      for (const [row, res] of [
        [`grant ${p} to another`, await put(as, grantee.email, [p])],
        [`raise themselves with ${p}`, await put(as, grantor.email, PERMISSIONS)],
      ] as const) {
        expect([row, res.status, res.body.error?.code, res.body.error?.details]).toEqual([
          row,
          403,
          'grantExceedsOwnPermissions',
          [expect.objectContaining({ permission: p, reason: OWNER_ONLY.includes(p) ? 'ownerOnly' : 'notHeld' })],
        ]);
      }
    }
  }
  // Held, but the owner's to give: refused to a member holding both.
  const holder = staffWithout.get('suppliers.view')!;
  for (const p of OWNER_ONLY) {
    const res = await put({ key: holder.key }, grantee.email, [p]);
    expect([p, res.status, res.body.error?.code, res.body.error?.details?.[0]]).toEqual([
      p,
      403,
      'grantExceedsOwnPermissions',
      expect.objectContaining({ permission: p, reason: 'ownerOnly' }),
    ]);
  }
  expect((await svc.db.query('SELECT count(*)::int AS n FROM store_staff WHERE account_id = $1', [grantee.accountId])).rows[0].n).toBe(0);
  // What the grantor holds, they grant; an own-scope key of the owner manages no staff at all.
  expect((await put({ key: holder.key }, grantee.email, ['orders.view'])).status).toBe(200);
  for (const res of [
    await put({ key: ownScopeKey }, grantee.email, ['customers.view']),
    await svc.call('DELETE', `/api/stores/${storeId}/staff/${grantee.accountId}`, { key: ownScopeKey }),
  ]) {
    expect([res.status, res.body.error.code]).toEqual([403, 'recordScopeTooNarrow']);
  }
  expect((await svc.call('DELETE', `/api/stores/${storeId}/staff/${grantee.accountId}`, { session: owner.session })).status).toBe(204);
});

test('too few credits: 402 insufficientCredits, nothing done and nothing charged', async () => {
  const priced = ops.filter((o) => o.creditPrice > 0 && acceptsKey(o));
  expect(priced.length).toBeGreaterThan(0);
  for (const op of priced) {
    const body = validBodies[op.operationId];
    if (!body) throw new Error(`The matrix has no valid body for ${op.operationId}; add one.`);
    const before = (await svc.db.query('SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1', [poorOwner.accountId])).rows[0].n;
    const res = await svc.call(op.method, urlFor(op, poorStoreId), { key: poorOwner.key, body: body() });
    // Charged once per record made (submit): the ids of the matrix name no order part, so there is nothing to
    // make and nothing to charge; test/dispatch/engine.test.ts shows the 402 for a part that gets its first one.
    const expected = op.creditCharged === 'once per record made' ? [404, 'notFound'] : [402, 'insufficientCredits'];
    expect([op.operationId, res.status, res.body?.error?.code]).toEqual([op.operationId, ...expected]);
    const after = (await svc.db.query('SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1', [poorOwner.accountId])).rows[0].n;
    expect(after).toBe(before);
  }
  const products = await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [poorStoreId]);
  expect(products.rows[0].n).toBe(0);
});

leakScanTest();
