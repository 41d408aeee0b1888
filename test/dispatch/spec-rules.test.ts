/**
 * Spec rules that had no test able to fail (issue 22): duplicate protection 1, 2, 5 and 6, "a notification never
 * moves money, stock or status by itself", and connectionMissing for a removed connection and for a supplier the
 * operator switched off. Each waits on the event it needs (a row, a history entry, a notification's read-back),
 * never on a sleep being long enough.
 */
import { signSandboxNotification } from '../../server/sandboxes/supplier';
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received, Shop, soAction, submit } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Sweeps and background retries every second, so "never retried" is watched over many sweeps; a public address,
  // so the sandbox's notifications arrive; a high circuit threshold, so one failing account does not pause others.
  svc = await startService({
    label: 'spec-rules',
    sandbox,
    publicBaseUrl: true,
    env: {
      DISPATCH_SWEEP_SECONDS: '1',
      DISPATCH_SWEEP_STALE_SECONDS: '1',
      DISPATCH_RETRY_BASE_SECONDS: '1',
      DISPATCH_RETRY_LIMIT: '5',
      CIRCUIT_FAILURE_THRESHOLD: '50',
    },
  });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const supplierOrder = (shop: Shop, id: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);

/** The order a submit or retry answered, once its job is done with it: a 202 (the job outlasted the wait, as on a busy machine) is followed. */
async function settled(shop: Shop, answer: Promise<{ status: number; body: any }>): Promise<any> {
  const res = await answer;
  if (res.status === 200) return res.body.result;
  expect(res.status).toBe(202);
  return eventually(
    async () => {
      const so = await supplierOrder(shop, res.body.result._id);
      return so.status !== 'queued' ? so : undefined;
    },
    60000,
    'the job behind a 202',
  );
}
const ofOrder = (shop: Shop, orderId: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key }).then((r) => r.body.result.items);

/** A paused order: created at the supplier, its payment refused for the balance (insufficientBalance, not retryable). */
async function pausedForBalance(page: number): Promise<{ shop: Shop; so: any }> {
  const shop = await openShop(svc, sandbox, { page, balanceMinor: 0 });
  const so = await settled(shop, submit(svc, shop, (await placeOrder(svc, shop)).id, { payNow: true }));
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'insufficientBalance', retryable: false });
  return { shop, so };
}

/**
 * Proof that background work ran after `since`: an order that failed while its supplier account was down is retried
 * by the sweeper (its history gains `automaticRetry`) once the account is back. Answers that order.
 */
async function backgroundRetryAfter(page: number): Promise<any> {
  const shop = await openShop(svc, sandbox, { page });
  await sandbox.control('POST', '/faults', { unavailableAccounts: [shop.account.accountId] });
  const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
  const failed = await eventually(
    async () => {
      const so = (await ofOrder(shop, res.body.result.orderId))[0];
      return so?.status === 'failed' ? so : undefined;
    },
    30000,
    'the order to fail while its supplier account is down',
  );
  await sandbox.control('DELETE', '/faults');
  return eventually(
    async () => {
      const so = await supplierOrder(shop, failed._id);
      return so.events.some((e: any) => e.type === 'automaticRetry') && so.status !== 'queued' && so.status !== 'failed' ? so : undefined;
    },
    60000,
    'the background retry of the failed order',
  );
}

test("duplicate protection 1: the confirmation's automatic send raced against manual submits gives one job's work: one supplier order, one create", async () => {
  const shop = await openShop(svc, sandbox, { page: 2, automation: { level: 'automatic' } });
  const order = await placeOrder(svc, shop);
  // The supplier answers slowly, so every trigger arrives while the first job is still out.
  await sandbox.control('POST', '/faults', { latencyMs: 1500 });
  try {
    const confirm = svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key });
    const submits = Array.from({ length: 6 }, () => submit(svc, shop, order.id));
    const answers = await Promise.all([confirm, ...submits]);
    expect(answers.map((a) => a.status).every((s) => s === 200 || s === 202)).toBe(true);
    const ids = new Set(answers.slice(1).map((a) => a.body.result._id));
    expect(ids.size).toBe(1);
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  const so = await eventually(
    async () => {
      const [one] = await ofOrder(shop, order.id);
      return one?.status === 'submitted' ? one : undefined;
    },
    30000,
    'the part to be sent',
  );
  expect(await ofOrder(shop, order.id)).toHaveLength(1);
  const rows = await svc.db.query('SELECT count(*)::int AS n FROM supplier_orders WHERE order_id = $1', [order.id]);
  expect(rows.rows[0].n).toBe(1);
  expect((await received(sandbox, so.supplierOrderNumber)).count(so.supplierOrderNumber)).toBe(1);
  // No other attempt's number reached the supplier either.
  const prefix = so.supplierOrderNumber.replace(/\d+$/, '');
  expect((await received(sandbox)).all.orders.filter((o: any) => o.orderNumber.startsWith(prefix))).toHaveLength(1);
  // One job per part, named as the spec names it: every job this part ever had carries that one key.
  const keys = await svc.db.query(`SELECT DISTINCT singleton_key FROM pgboss.job WHERE name = 'dispatch.supplier-order' AND data->>'supplierOrderId' = $1`, [
    so._id,
  ]);
  expect(keys.rows.map((r) => r.singleton_key)).toEqual([`supplier-order:${order.id}:${partKeyOf(shop)}`]);
});

test('duplicate protection 2: a new attempt (after the supplier refused the create) sends a new order number; the refused one is never reused', async () => {
  const shop = await openShop(svc, sandbox, { page: 3 });
  const order = await placeOrder(svc, shop);
  await sandbox.control('POST', '/faults', { refuseNext: { count: 1, message: 'Try again' } });
  const first = await settled(shop, submit(svc, shop, order.id));
  expect(first).toMatchObject({ status: 'needsReview', reviewReason: 'supplierRefused', attempt: 1 });
  const retried = await settled(shop, soAction(svc, shop, first._id, 'retry'));
  expect(retried).toMatchObject({ status: 'submitted', attempt: 2 });
  expect(retried.supplierOrderNumber).not.toBe(first.supplierOrderNumber);
  expect(first.supplierOrderNumber).toMatch(/-1$/);
  expect(retried.supplierOrderNumber).toBe(first.supplierOrderNumber.replace(/-1$/, '-2'));
  const r = await received(sandbox);
  expect(r.count(first.supplierOrderNumber)).toBe(0);
  expect(r.count(retried.supplierOrderNumber)).toBe(1);
});

test("duplicate protection 5: a paused order does not clear by itself, even once the supplier's side changed and its notification was read back, and sweeps ran", async () => {
  const { shop, so } = await pausedForBalance(4);
  // At the supplier the cause goes away: topped up, and the order paid there by hand. The supplier notifies.
  await sandbox.control('POST', `/accounts/${shop.account.accountId}/balance`, { balanceMinor: 10_000_000 });
  expect((await sandbox.v1(shop.account.liveKey, 'POST', `/orders/${so.supplierOrderId}/pay`)).status).toBe(200);
  const readBack = await eventually(
    async () => {
      const now = await supplierOrder(shop, so._id);
      return now.supplierStatus !== so.supplierStatus ? now : undefined;
    },
    30000,
    "the notification's read-back",
  );
  expect(readBack.supplierStatus).toBe('paid');
  await backgroundRetryAfter(5);
  const after = await supplierOrder(shop, so._id);
  expect(after).toMatchObject({ status: 'needsReview', reviewReason: 'insufficientBalance', retryable: false });
  // What happened since the pause: read-backs that refreshed the supplier's fields, none of them a move.
  const since = after.events.slice(so.events.length);
  expect(since.length).toBeGreaterThan(0);
  for (const e of since) expect([e.type, e.to ?? 'needsReview']).toEqual(['readBack', 'needsReview']);
  // Paid once, by hand at the supplier; the service paid nothing.
  expect((await received(sandbox, so.supplierOrderNumber)).payments).toHaveLength(1);
});

test('duplicate protection 6: a pause that is not retryable is never retried in the background, while a failed order beside it is', async () => {
  const { shop, so } = await pausedForBalance(6);
  // Topped up: a retry would now succeed, so any background retry would show.
  await sandbox.control('POST', `/accounts/${shop.account.accountId}/balance`, { balanceMinor: 10_000_000 });
  const other = await backgroundRetryAfter(7);
  expect(other.events.filter((e: any) => e.type === 'automaticRetry').length).toBeGreaterThan(0);
  // Several more sweeps: the sweeper visits every second; wait for a second failed order to be retried too.
  await backgroundRetryAfter(8);
  const after = await supplierOrder(shop, so._id);
  expect(after).toMatchObject({ status: 'needsReview', reviewReason: 'insufficientBalance', retryable: false, attempt: so.attempt });
  expect(after.events).toEqual(so.events);
  const r = await received(sandbox, so.supplierOrderNumber);
  expect([r.count(so.supplierOrderNumber), r.payments.length]).toEqual([1, 0]);
});

test('a notification never moves money, stock or status by itself: what it claims is ignored, what the supplier says on read-back counts', async () => {
  const shop = await openShop(svc, sandbox, { page: 9 });
  const order = await placeOrder(svc, shop);
  const so = await settled(shop, submit(svc, shop, order.id));
  expect(so).toMatchObject({ status: 'submitted', payment: { status: 'unpaid' } });
  const conn = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result.find((c: any) => c.id === shop.connId);
  const secret = (await sandbox.v1(shop.account.liveKey, 'PUT', '/webhook', { url: conn.webhookUrl })).body.signingSecret;
  const notify = async (data: Record<string, unknown>, type: string) => {
    const body = JSON.stringify({ id: `evt_claim_${Date.now()}_${Math.random()}`, type, createdAt: new Date().toISOString(), data });
    const res = await svc.call('POST', new URL(conn.webhookUrl).pathname, {
      rawBody: body,
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxNotification(secret, body, Math.floor(Date.now() / 1000)) },
    });
    expect(res.status).toBe(200);
  };
  // The order: the notification claims it was paid, shipped and delivered, at another cost.
  await notify(
    {
      orderId: so.supplierOrderId,
      orderNumber: so.supplierOrderNumber,
      status: 'delivered',
      paid: true,
      shipping: { carrier: 'Fake', trackingNumber: 'F1' },
      costs: { totalMinor: 1 },
    },
    'order.updated',
  );
  const read = await eventually(
    async () => {
      const now = await supplierOrder(shop, so._id);
      return now.updatedAt > so.updatedAt ? now : undefined;
    },
    30000,
    'the read-back the notification asked for',
  );
  expect(read).toMatchObject({ status: 'submitted', payment: { status: 'unpaid' }, shipping: so.shipping, costs: so.costs });
  expect((await received(sandbox, so.supplierOrderNumber)).payments).toEqual([]);
  const part = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result.fulfilmentGroups[0];
  expect(part.status).not.toBe('shipped');
  // A product: the notification claims it is out of stock and cheaper; the link keeps what the supplier says.
  const linkOf = async () =>
    (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links`, { key: shop.owner.key })).body.result.items.find(
      (l: any) => l.supplierProductId === shop.products[0].supplierProductId,
    );
  const before = await linkOf();
  await notify(
    { productId: shop.products[0].supplierProductId, variantIds: [shop.products[0].supplierVariantId], stock: 0, costMinor: 1, available: false },
    'product.updated',
  );
  const synced = await eventually(
    async () => {
      const now = await linkOf();
      return now.lastSyncAt && now.lastSyncAt !== before.lastSyncAt ? now : undefined;
    },
    30000,
    'the product read-back',
  );
  // The link holds what the supplier says now (its stock moved with our own order), not what the notification claimed.
  const atSupplier = (await sandbox.v1('sbx_live_demo', 'GET', `/products/${shop.products[0].supplierProductId}`)).body;
  const variant = atSupplier.variants.find((v: any) => v.id === shop.products[0].supplierVariantId);
  expect(synced.variants).toEqual([{ ...before.variants[0], stock: variant.stock, costMinor: variant.costMinor, available: variant.available }]);
  expect([variant.stock, variant.costMinor, variant.available]).not.toEqual([0, 1, false]);
  expect(synced.variants[0].stock).toBeGreaterThan(0);
});

test('connectionMissing when the connection was removed: a part sent afterwards pauses, nothing reaches the supplier', async () => {
  const shop = await openShop(svc, sandbox, { page: 10 });
  const order = await placeOrder(svc, shop);
  expect((await svc.call('DELETE', `/api/store-suppliers/${shop.storeId}/${shop.connId}`, { key: shop.owner.key })).status).toBe(200);
  const so = await settled(shop, submit(svc, shop, order.id));
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'connectionMissing', retryable: false, supplierOrderId: null });
  expect(so.reviewMessage).toMatch(/removed/);
  expect((await received(sandbox, so.supplierOrderNumber)).count(so.supplierOrderNumber)).toBe(0);
});

test('connectionMissing when the operator switched the supplier off (DISABLED_SUPPLIERS): a part sent then pauses, nothing reaches the supplier', async () => {
  // Its own database: the switch is per process, and no process without it may pick the job up.
  const first = await startService({ label: 'switched-off', sandbox });
  const shop = await openShop(first, sandbox, { page: 11 });
  const order = await placeOrder(first, shop);
  await first.stop();
  const off = await startService({ label: 'switched-off', sandbox, databaseUrl: first.databaseUrl, env: { DISABLED_SUPPLIERS: 'sandbox' } });
  try {
    const answer = await submit(off, shop, order.id);
    const so =
      answer.status === 200
        ? answer.body.result
        : await eventually(
            async () => {
              const now = (await off.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${answer.body.result._id}`, { key: shop.owner.key })).body.result;
              return now.status !== 'queued' ? now : undefined;
            },
            60000,
            'the job behind a 202',
          );
    expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'connectionMissing', retryable: false, supplierOrderId: null });
    expect(so.reviewMessage).toMatch(/switched off by the operator/);
    expect((await received(sandbox, so.supplierOrderNumber)).count(so.supplierOrderNumber)).toBe(0);
  } finally {
    await off.stop();
  }
}, 150_000); // two services started one after the other

leakScanTest();
