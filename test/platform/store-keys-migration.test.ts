import { Client, Pool } from 'pg';
import { MIGRATIONS } from '../../server/composition';
import { asTests, eventually, runCli, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, submit } from '../support/orders';

/**
 * The store keys migrations on a database in use: reversed to the previous release's schema with its rows, then
 * applied again while a process of the previous release still writes (expand applies, contract waits for it to go).
 */
let sandbox: Sandbox;
let svc: Service;
let db: Pool;

const CHILDREN = [
  'product_link_variants',
  'import_job_items',
  'store_order_items',
  'fulfilment_groups',
  'payment_events',
  'supplier_order_events',
  'supplier_order_numbers',
  'supplier_notification_receipts',
  'event_deliveries',
  'event_reactions',
];

async function keyOf(table: string): Promise<string> {
  const r = await db.query(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [table]);
  return r.rows[0].def;
}
async function hasStoreId(table: string): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = 'store_id'`, [table]);
  return r.rows.length > 0;
}
async function childRows(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of CHILDREN) out[t] = (await db.query(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n;
  return out;
}
const applied = async (name: string) => (await db.query('SELECT 1 FROM migrations WHERE name = $1', [name])).rows.length > 0;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'store-keys', sandbox, publicBaseUrl: true, env: { MIGRATION_RETRY_SECONDS: '1' } });
  db = new Pool({ connectionString: asTests(svc.databaseUrl), max: 2 });
});
afterAll(async () => {
  await db.end();
  await svc.stop().catch(() => undefined);
  await sandbox.close();
});

test('reversed to the previous schema and applied again while the previous release writes, no row lost and every key by store', async () => {
  // Rows in every kind of child table a store has: an imported product, an order sent to the supplier.
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop);
  expect((await submit(svc, shop, order.id)).status).toBe(200);
  const before = await childRows();
  expect(before.product_link_variants).toBeGreaterThan(0);
  expect(before.supplier_order_events).toBeGreaterThan(0);
  expect(await keyOf('supplier_orders')).toBe('PRIMARY KEY (store_id, id)');
  await svc.stop();

  // Reversed: the previous release's keys and columns, the rows kept.
  const reverted = JSON.parse(runCli(svc, 'revert-migration', 'StoreKeysExpand1764979200350'));
  // Later migrations are reverted first (and applied again after the contract step): every one from the expand step on, newest first.
  const fromExpand = MIGRATIONS.map((m) => new m().name)
    .filter((n) => Number(/(\d+)$/.exec(n)![1]) >= 1764979200350)
    .reverse();
  expect(fromExpand.slice(-3)).toEqual(['StoreKeysWrittenByCode1764979200352', 'StoreKeysContract1764979200351', 'StoreKeysExpand1764979200350']);
  expect(reverted.reverted).toEqual(fromExpand);
  expect(await keyOf('supplier_orders')).toBe('PRIMARY KEY (id)');
  expect(await keyOf('fulfilment_groups')).toBe('PRIMARY KEY (order_id, group_key)');
  for (const t of CHILDREN) expect({ t, storeId: await hasStoreId(t) }).toEqual({ t, storeId: false });
  expect(await childRows()).toEqual(before);

  // A process of the previous release is connected and keeps writing as it did: no store_id, its own conflict keys.
  const old = new Client({ connectionString: asTests(svc.databaseUrl), application_name: 'store-suppliers' });
  await old.connect();
  const oldWrite = (eventId: string) =>
    old.query('INSERT INTO supplier_notification_receipts (connection_id, event_id) VALUES ($1, $2) ON CONFLICT (connection_id, event_id) DO NOTHING', [
      shop.connId,
      eventId,
    ]);
  await oldWrite('before-expand');

  svc = await startService({ label: 'store-keys', sandbox, publicBaseUrl: true, databaseUrl: svc.databaseUrl, env: { MIGRATION_RETRY_SECONDS: '1' } });
  await svc.waitForLog((l) => l.msg === 'a migration waits for the previous release to stop');
  // Expanded: store_id on every child row (backfilled, and filled for the old writer), the old keys still there.
  expect(await applied('StoreKeysExpand1764979200350')).toBe(true);
  expect(await applied('StoreKeysContract1764979200351')).toBe(false);
  await oldWrite('during-expand');
  await oldWrite('during-expand');
  const receipts = await db.query(
    'SELECT event_id, store_id FROM supplier_notification_receipts WHERE connection_id = $1 AND event_id LIKE $2 ORDER BY event_id',
    [shop.connId, '%expand'],
  );
  expect(receipts.rows).toEqual([
    { event_id: 'before-expand', store_id: shop.storeId },
    { event_id: 'during-expand', store_id: shop.storeId },
  ]);
  for (const t of CHILDREN)
    expect({ t, unfilled: (await db.query(`SELECT count(*)::int AS n FROM ${t} WHERE store_id IS NULL`)).rows[0].n }).toEqual({ t, unfilled: 0 });
  const events = await db.query('SELECT e.store_id = s.store_id AS same FROM supplier_order_events e JOIN supplier_orders s ON s.id = e.supplier_order_id');
  expect(events.rows.every((r) => r.same)).toBe(true);
  // The new release answers meanwhile.
  expect((await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).status).toBe(200);

  // The previous release's process goes: the contract step applies within its retry.
  await old.end();
  await eventually(
    async () => ((await applied('StoreKeysWrittenByCode1764979200352')) ? true : undefined),
    30000,
    "the contract step and the fill triggers' removal to apply",
  );
  // And every migration after them (each in its own transaction): an order placed before the last is applied meets a
  // schema the code does not know yet (a loaded CI run got a 500 so).
  const newest = new MIGRATIONS[MIGRATIONS.length - 1]().name!;
  await eventually(async () => ((await applied(newest)) ? true : undefined), 30000, 'the migrations after the contract step to apply');
  // Every writer sends store_id now: an insert without it is refused, no trigger fills it any more.
  await expect(db.query('INSERT INTO supplier_notification_receipts (connection_id, event_id) VALUES ($1, $2)', [shop.connId, 'no-store'])).rejects.toThrow(
    /null value in column "store_id"/,
  );
  expect(await keyOf('supplier_orders')).toBe('PRIMARY KEY (store_id, id)');
  expect(await keyOf('supplier_notification_receipts')).toBe('PRIMARY KEY (store_id, connection_id, event_id)');
  expect(await keyOf('credit_ledger')).toBe('PRIMARY KEY (account_id, id)');
  const after = await childRows();
  expect(after).toEqual({ ...before, supplier_notification_receipts: before.supplier_notification_receipts + 2 });
  // And the service works on the contracted schema: a second order goes to the supplier.
  const second = await placeOrder(svc, shop);
  expect((await submit(svc, shop, second.id)).body.result.status).toBe('submitted');
});
