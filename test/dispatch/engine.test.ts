/**
 * The dispatch engine's promises beyond "once": one charge per supplier order, store actions that never wait on a
 * supplier, `Prefer: respond-async`, and the per-connection limits (calls in flight, calls per second) kept across
 * two worker processes. Everything is counted where it happens: the credit ledger, and the sandbox's own record of
 * the calls it was answering.
 */
import { createDatabase, eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received, Shop, submit } from '../support/orders';

let sandbox: Sandbox;
const started: Service[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const s of started.reverse()) await s.stop().catch(() => undefined);
  await sandbox?.close();
});
async function service(opts: Parameters<typeof startService>[0]): Promise<Service> {
  const s = await startService({ sandbox, ...opts });
  started.push(s);
  return s;
}
const getSo = (svc: Service, shop: Shop, id: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const ledger = (svc: Service, accountId: string) =>
  svc.db
    .query(`SELECT action, amount FROM credit_ledger WHERE account_id = $1 AND action LIKE 'supplierOrder.send%' ORDER BY id`, [accountId])
    .then((r) => r.rows);

describe('one charge per supplier order', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await service({ label: 'engine-credits' });
  });

  test('100 concurrent submits of one part, then one more: one supplier order, one ledger row, one price taken', async () => {
    const shop = await openShop(svc, sandbox);
    const order = await placeOrder(svc, shop);
    await sandbox.control('POST', '/faults', { accountLatencyMs: { [shop.account.accountId]: 100 } });
    const before = (await svc.call('GET', '/api/api-key/current', { key: shop.owner.key })).body.result;
    const answers = await Promise.all(Array.from({ length: 100 }, () => submit(svc, shop, order.id)));
    expect(answers.every((a) => a.status === 200 || a.status === 202)).toBe(true);
    expect(new Set(answers.map((a) => a.body.result._id)).size).toBe(1);
    const again = await submit(svc, shop, order.id);
    expect(again.status).toBe(200);
    expect(again.body.result._id).toBe(answers[0].body.result._id);

    const rows = await ledger(svc, shop.owner.accountId);
    expect(rows).toEqual([{ action: 'supplierOrder.send', amount: -3 }]);
    const after = (await svc.call('GET', '/api/api-key/current', { key: shop.owner.key })).body.result;
    expect(creditsOf(after)).toBe(creditsOf(before) - 3);
    expect((await received(sandbox)).count(again.body.result.supplierOrderNumber)).toBe(1);
    await sandbox.control('POST', '/faults', { accountLatencyMs: {} });
  });

  test('too few credits: 402 and no supplier order; a part that already has one answers it without credits', async () => {
    const shop = await openShop(svc, sandbox);
    const sent = await placeOrder(svc, shop);
    expect((await submit(svc, shop, sent.id)).status).toBe(200);
    const other = await placeOrder(svc, shop);
    await svc.db.query('UPDATE accounts SET credits = 2 WHERE id = $1', [shop.owner.accountId]);
    const refused = await submit(svc, shop, other.id);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficientCredits');
    const { rows } = await svc.db.query('SELECT count(*)::int AS n FROM supplier_orders WHERE order_id = $1', [other.id]);
    expect(rows[0].n).toBe(0);
    const repeat = await submit(svc, shop, sent.id);
    expect(repeat.status).toBe(200);
    expect(repeat.body.result.status).toBe('submitted');
    expect(await ledger(svc, shop.owner.accountId)).toHaveLength(1);
  });
});

const creditsOf = (current: any): number => current.credits.available;

describe('store actions never wait on a supplier', () => {
  test('confirming an order answers before the slow supplier is called; the part is sent afterwards', async () => {
    const svc = await service({ label: 'engine-confirm' });
    const shop = await openShop(svc, sandbox, { automation: { level: 'automatic', automaticPayment: false, allowUnpaidOrders: true } });
    const order = await placeOrder(svc, shop);
    await sandbox.control('POST', '/faults', { accountLatencyMs: { [shop.account.accountId]: 4000 } });
    const confirmed = await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result.status).toBe('confirmed');
    // Answered while nothing had reached the supplier yet: no order there, and the part not sent.
    const atAnswer = await received(sandbox);
    expect(atAnswer.orders.filter((o: any) => o.accountId === shop.account.accountId)).toHaveLength(0);
    for (const so of confirmed.body.result.supplierOrders ?? []) expect(so.status).toBe('queued');
    const so = await eventually(
      async () => {
        const details = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
        return details.supplierOrders?.[0]?.status === 'submitted' ? details.supplierOrders[0] : undefined;
      },
      60000,
      'the automatic part to be sent after the confirmation',
    );
    expect((await received(sandbox)).count(so.supplierOrderNumber)).toBe(1);
    expect(so.events[0]).toMatchObject({ type: 'created', details: { trigger: 'confirmation' } });
    await sandbox.control('POST', '/faults', { accountLatencyMs: {} });
  }, 90000);
});

describe('Prefer: respond-async', () => {
  test('submit answers 202 at once with the queued supplier order, which the job then sends', async () => {
    const svc = await service({ label: 'engine-async' });
    const shop = await openShop(svc, sandbox);
    const order = await placeOrder(svc, shop);
    const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${order.id}/groups/${encodeURIComponent(partKeyOf(shop))}/submit`, {
      key: shop.owner.key,
      body: {},
      headers: { Prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    expect(res.body.result).toMatchObject({ status: 'queued', fulfilmentGroupKey: partKeyOf(shop) });
    const so = await eventually(async () => {
      const s = await getSo(svc, shop, res.body.result._id);
      return s.status === 'submitted' ? s : undefined;
    }, 30000);
    expect((await received(sandbox)).count(so.supplierOrderNumber)).toBe(1);
    const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
    const op = doc.paths['/api/store-suppliers/{storeId}/orders/{orderId}/groups/{groupKey}/submit'].post;
    expect(op.parameters.map((p: any) => p.name)).toContain('Prefer');
    expect(op.responses['202'].description).toMatch(/respond-async/);
    expect(op['x-credit-charged']).toBe('once per record made');
  });
});

describe('per-connection limits across processes', () => {
  test('two workers keep a connection to 2 dispatch jobs at once and 10 calls a second', async () => {
    const databaseUrl = await createDatabase('engine-limits');
    const limits = { SANDBOX_SUPPLIER_CALLS_IN_FLIGHT: '2', SANDBOX_SUPPLIER_REQUESTS_PER_SECOND: '10' };
    const api = await service({ label: 'engine-limits', databaseUrl, role: 'api', env: { DISPATCH_WAIT_MS: '0', ...limits } });
    await service({ label: 'engine-limits', databaseUrl, role: 'worker', env: limits });
    await service({ label: 'engine-limits', databaseUrl, role: 'worker', env: limits });
    const shop = await openShop(api, sandbox);
    const orders = [];
    for (let i = 0; i < 12; i++) orders.push(await placeOrder(api, shop, { productIndex: i % 2 }));
    await sandbox.control('POST', '/faults', { accountLatencyMs: { [shop.account.accountId]: 150 } });
    await sandbox.control('DELETE', '/call-load');
    const answers = await Promise.all(orders.map((o) => submit(api, shop, o.id)));
    expect(answers.every((a) => a.status === 202)).toBe(true);
    await eventually(
      async () => {
        const { rows } = await api.db.query(`SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = $1 AND status = 'submitted'`, [shop.storeId]);
        return rows[0].n === 12 ? true : undefined;
      },
      90000,
      'twelve parts sent',
    );
    const load = (await received(sandbox)).all.callLoad[shop.account.accountId];
    expect(load.maxInFlight).toBeGreaterThanOrEqual(1);
    expect(load.maxInFlight).toBeLessThanOrEqual(2);
    // 12 parts × 3 calls at 10 a second, whichever process made them: they span at least (n - 1) × 100 ms, and no
    // second holds more than 10 (plus 2 for the network's jitter between our slot and the sandbox's clock).
    const times = [...load.arrivals].sort((a: number, b: number) => a - b);
    expect(times.length).toBeGreaterThanOrEqual(36);
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual((times.length - 1) * 100 * 0.9);
    const busiest = Math.max(...times.map((t: number) => times.filter((u: number) => u >= t && u < t + 1000).length));
    expect(busiest).toBeLessThanOrEqual(12);
    await sandbox.control('POST', '/faults', { accountLatencyMs: {} });
  }, 120000);
});
