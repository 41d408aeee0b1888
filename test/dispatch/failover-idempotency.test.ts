/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Creates sent again with their Idempotency-Key across a failover count one of each (issue 56, item 5), on the
 * failover drill's machinery (a primary, a streaming standby behind one address, a replication link to cut).
 * - An answer lost after its commit (the caller's connection dropped while the service waited for the standby): the
 *   same key answers the first result, from the promoted standby, replayed.
 * - Commits lost in the failover (made after the cut): the same key makes them once on the promoted standby.
 * Each store order then goes to the supplier once, however often its confirmation is sent.
 */
import { Pool } from 'pg';
import { eventually, leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, received, Shop, US_ADDRESS } from '../support/orders';
import { ReplicatedPostgres, rowsAt } from '../support/replication';

const FAST = {
  DATABASE_REPLICATION: 'asynchronous',
  // The answers wait for the standby until the failover: none is given up on and acknowledged meanwhile.
  STANDBY_WAIT_MS: '60000',
  CREDIT_HOLD_LEASE_SECONDS: '3',
  DISPATCH_WAIT_MS: '0',
  JOB_SUPERVISE_SECONDS: '1',
  DISPATCH_SWEEP_SECONDS: '1',
  DISPATCH_SWEEP_STALE_SECONDS: '3',
  DISPATCH_RETRY_BASE_SECONDS: '1',
};

let pair: ReplicatedPostgres;
let sandbox: Sandbox;
let svc: Service;
afterAll(async () => {
  await svc?.stop('SIGKILL').catch(() => undefined);
  await sandbox?.close();
  await pair?.destroy();
});

interface Create {
  path: string;
  body: unknown;
}

/** One keyed send, its answer possibly lost (aborted, or the connection dropped). */
async function send(shop: Shop, c: Create, key: string, signal?: AbortSignal): Promise<{ status: number; body: any; replayed: boolean }> {
  const res = await fetch(svc.baseUrl + c.path, {
    method: 'POST',
    headers: { 'X-API-Key': shop.owner.key, 'Idempotency-Key': key, ...(c.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
    signal,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

/** What a careful client does: the same key again while the service answers 503 or the connection fails. */
const sendUntilAnswered = (shop: Shop, c: Create, key: string) =>
  eventually(
    async () => {
      const r = await send(shop, c, key).catch(() => undefined);
      return r && r.status !== 503 && r.status !== 409 ? r : undefined;
    },
    90000,
    `an answer for ${key}`,
  );

const onPrimary = async (sql: string, params: unknown[]) => (await rowsAt(pair.primary.url('live'), sql, params))[0];

test('creates replayed with their Idempotency-Key across a failover count one of each', async () => {
  pair = await ReplicatedPostgres.start();
  await pair.primary.createDatabase('live');
  sandbox = await startSandbox();
  svc = await startService({ label: 'failover-keys', sandbox, databaseUrl: pair.url('live'), privateTargets: true, env: FAST });
  const shop = await openShop(svc, sandbox, { page: 3, automation: { level: 'automatic', automaticPayment: false, allowUnpaidOrders: true } });
  const spare = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=4')).body.items.filter(
    (p: any) => p.variants[0].available && p.shipsTo.includes('US'),
  );
  const creates = (n: number): Record<string, Create> => ({
    order: {
      path: `/api/store-orders/${shop.storeId}`,
      body: {
        items: [{ productId: shop.products[0].productId, variantId: shop.products[0].variantId, quantity: n }],
        destination: US_ADDRESS,
        paymentMethod: 'manual',
      },
    },
    import: {
      path: `/api/store-suppliers/${shop.storeId}/${shop.connId}/import`,
      body: { products: [{ supplierProductId: spare[n].id, variantIds: [spare[n].variants[0].id] }] },
    },
    subscription: {
      path: `/api/store-suppliers/${shop.storeId}/event-subscriptions`,
      body: { url: `http://127.0.0.1:9/hook-${n}`, eventTypes: ['supplierOrder.created'] },
    },
  });
  const first = creates(1);
  const second = creates(2);
  await pair.caughtUp();

  // 1. Answers lost after their commits: the standby is cut off, so the answers wait; the caller gives up on them
  // once the service has kept them, then the standby catches up with all of it.
  pair.cutReplication();
  const aborts = new AbortController();
  const lost = Object.entries(first).map(([name, c]) => send(shop, c, `first-${name}`, aborts.signal).catch((err) => err));
  for (const name of Object.keys(first)) {
    await eventually(
      async () =>
        (await onPrimary('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1 AND answer_status IS NOT NULL', [`first-${name}`])).n === 1
          ? true
          : undefined,
      60000,
      `the answer of first-${name} kept`,
    );
  }
  aborts.abort();
  for (const l of await Promise.all(lost)) expect(String(l)).toMatch(/abort/i);
  pair.link.restore();
  await pair.caughtUp(60000);

  // 2. Commits lost: made on the primary after the cut, never streamed, then the primary dies.
  pair.cutReplication();
  const pending = Object.entries(second).map(([name, c]) => send(shop, c, `second-${name}`).catch((err) => err));
  await eventually(
    async () => ((await onPrimary('SELECT count(*)::int AS n FROM store_orders WHERE store_id = $1', [shop.storeId])).n === 2 ? true : undefined),
    60000,
    'the second order on the primary',
  );
  await eventually(
    async () =>
      (await onPrimary('SELECT count(*)::int AS n FROM idempotency_keys WHERE key LIKE $1 AND answer_status IS NOT NULL', ['second-%'])).n === 3
        ? true
        : undefined,
    60000,
    'the second creates kept on the primary',
  );
  const { lostWalBytes } = await pair.failover();
  expect(lostWalBytes).toBeGreaterThan(0);
  // Never told they were made: the service cannot know whether they were kept.
  for (const p of await Promise.all(pending)) expect(p.status === 201 || p.status === 200).toBe(false);

  // 3. Everything sent again with its key, twice: each first answer replayed, each lost commit made once.
  const answers: Record<string, { status: number; body: any; replayed: boolean }> = {};
  for (const [name, c] of Object.entries(first)) {
    const r = await sendUntilAnswered(shop, c, `first-${name}`);
    expect([name, r.status, r.replayed]).toEqual([name, 201, true]);
    answers[`first-${name}`] = r;
  }
  for (const [name, c] of Object.entries(second)) {
    const r = await sendUntilAnswered(shop, c, `second-${name}`);
    expect([name, r.status]).toEqual([name, 201]);
    const again = await sendUntilAnswered(shop, c, `second-${name}`);
    expect([name, again.replayed, again.body]).toEqual([name, true, r.body]);
    answers[`second-${name}`] = r;
  }
  for (const a of Object.values(answers)) if (a.body.result.secret) seen.secrets.add(a.body.result.secret);

  // One of each per key in the promoted standby's records (read through the same address as the service).
  const db = new Pool({ connectionString: pair.url('live'), max: 1 });
  db.on('error', () => undefined);
  const count = async (sql: string) => Number((await db.query(sql, [shop.storeId])).rows[0].n);
  const orderIds = (await db.query('SELECT id FROM store_orders WHERE store_id = $1 ORDER BY created_at', [shop.storeId])).rows.map((r: any) => r.id);
  expect(orderIds.sort()).toEqual([answers['first-order'].body.result.id, answers['second-order'].body.result.id].sort());
  expect(await count('SELECT count(*)::int AS n FROM event_subscriptions WHERE store_id = $1')).toBe(2);
  for (const n of [1, 2]) {
    const links = await db.query('SELECT count(*)::int AS n FROM product_links WHERE store_id = $1 AND supplier_product_id = $2', [shop.storeId, spare[n].id]);
    expect([n, links.rows[0].n]).toEqual([n, 1]);
  }

  // Each order confirmed, the confirmation sent twice with its key: the supplier sees one order for each.
  for (const id of orderIds) {
    const confirm = { path: `/api/store-orders/${shop.storeId}/${id}/confirm`, body: undefined };
    expect((await sendUntilAnswered(shop, confirm, `confirm-${id}`)).status).toBe(200);
    expect((await sendUntilAnswered(shop, confirm, `confirm-${id}`)).replayed).toBe(true);
  }
  const numbers = await eventually(
    async () => {
      const r = (await db.query(`SELECT supplier_order_number FROM supplier_orders WHERE store_id = $1 AND supplier_order_number IS NOT NULL`, [shop.storeId]))
        .rows;
      return r.length === 2 ? r.map((x: any) => x.supplier_order_number as string) : undefined;
    },
    90000,
    'both orders numbered',
  );
  const mine = (r: Awaited<ReturnType<typeof received>>) => r.orders.filter((o: any) => o.accountId === shop.account.accountId);
  await eventually(async () => (mine(await received(sandbox)).length >= 2 ? true : undefined), 90000, 'both orders at the supplier');
  // A little longer: a second order for either would have arrived by now.
  await new Promise((r) => setTimeout(r, 3000));
  const atSupplier = await received(sandbox);
  for (const number of numbers)
    expect([number, atSupplier.orders.filter((o: any) => o.orderNumber.startsWith(number.replace(/-\d+$/, '-'))).length]).toEqual([number, 1]);
  expect(mine(atSupplier)).toHaveLength(2);
  await db.end();
}, 300000);

leakScanTest();
