/**
 * A pause decided from the connection alone (switched off, removed, test mode without a sandbox, circuit open) holds
 * for every part waiting on that connection: the first job that meets it pauses the connection's other queued parts
 * in the same write. Each ends exactly as its own job would have left it: paused with the reason, its own history
 * event, its part needing attention; a part with a cancel asked is left to its job; another connection's parts are
 * untouched.
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'connection-pause', sandbox });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
});

const submitAsync = (shop: Shop, orderId: string) =>
  svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${orderId}/groups/${encodeURIComponent(`supplier:${shop.connId}`)}/submit`, {
    key: shop.owner.key,
    body: {},
    headers: { Prefer: 'respond-async' },
  });

test('a switched-off connection: every waiting part is paused with connectionMissing, each with its own history and part', async () => {
  const shop = await openShop(svc, sandbox, { page: 5 });
  const other = await openShop(svc, sandbox, { page: 6 });
  await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}/enabled`, { key: shop.owner.key, body: { enabled: false } });
  const orders = [];
  for (let i = 0; i < 8; i++) orders.push(await placeOrder(svc, shop));
  const sent = await Promise.all(orders.map((o) => submitAsync(shop, o.id)));
  expect(sent.every((r) => r.status === 202)).toBe(true);
  const otherOrder = await placeOrder(svc, other);
  const otherSent = (await submitAsync(other, otherOrder.id)).body.result;

  const rows = await eventually(
    async () => {
      const { rows } = await svc.db.query(`SELECT id, status, review_reason, retryable FROM supplier_orders WHERE store_id = $1`, [shop.storeId]);
      return rows.length === 8 && rows.every((r) => r.status === 'needsReview') ? rows : undefined;
    },
    30000,
    'every part paused',
  );
  expect(rows.every((r) => r.review_reason === 'connectionMissing' && r.retryable === false)).toBe(true);
  const { rows: events } = await svc.db.query(
    `SELECT supplier_order_id, type, from_status, to_status, details->>'reason' AS reason, at FROM supplier_order_events WHERE supplier_order_id = ANY($1) ORDER BY id`,
    [rows.map((r) => r.id)],
  );
  for (const r of rows) {
    expect(events.filter((e) => e.supplier_order_id === r.id).map((e) => [e.type, e.from_status, e.to_status, e.reason])).toEqual([
      ['created', null, 'queued', null],
      ['paused', 'queued', 'needsReview', 'connectionMissing'],
    ]);
  }
  // Paused together: the parts still waiting when the first job met the switched-off connection share its one write
  // (one statement: one timestamp), instead of each job writing its own.
  const pausedAt = events.filter((e) => e.type === 'paused').map((e) => e.at.toISOString());
  expect(new Set(pausedAt).size).toBeLessThan(pausedAt.length);
  for (const o of orders) {
    const got = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${o.id}`, { key: shop.owner.key })).body.result;
    expect(got.fulfilmentSummary.needingAttention).toBe(1);
    expect(got.fulfilmentGroups[0].status).toBe('pending');
  }
  // The other connection's part went on to its supplier.
  await eventually(
    async () => {
      const so = (await svc.call('GET', `/api/store-suppliers/${other.storeId}/orders/${otherSent._id}`, { key: other.owner.key })).body.result;
      return so.status === 'submitted' ? so : undefined;
    },
    30000,
    "the other connection's part sent",
  );
});

leakScanTest();
