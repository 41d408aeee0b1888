/**
 * Two rules are applied by SQL so that one statement can apply them: the store order's status from its parts (the
 * orders domain's `statusFromParts`, written in the statement that moves a part) and "a dispatch step is due" (the
 * generated column the sweeper's index uses). These tests check both, on a migrated database, against the rules as
 * the spec and the dispatch job state them, for every case.
 */
import { Pool, PoolClient } from 'pg';
import { nextStep } from '../../server/dispatch/steps';
import { PARTS_SUMMARY, statusFromParts } from '../../server/orders/sql/status';
import { SUPPLIER_ORDER_STATUSES } from '../../server/dispatch/state-machine';
import { Service, asTests, startService } from '../support/harness';

type Part = 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled';
const PARTS: Part[] = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'];

/** The spec's rules: the order moves as its slowest part; shipped or delivered only when every live part is. */
function expected(parts: Part[], confirmed: boolean): string {
  const live = parts.filter((p) => p !== 'cancelled');
  if (!live.length) return parts.length ? 'cancelled' : confirmed ? 'confirmed' : 'pending';
  const slowest = live.reduce((a, b) => (PARTS.indexOf(a) <= PARTS.indexOf(b) ? a : b));
  return slowest === 'pending' ? (confirmed ? 'confirmed' : 'pending') : slowest;
}

let svc: Service;
let pool: Pool;
let client: PoolClient;
beforeAll(async () => {
  svc = await startService({ label: 'db-rules' });
  pool = new Pool({ connectionString: asTests(svc.databaseUrl), max: 1 });
  client = await pool.connect();
  // Rows without their parents: foreign keys (and triggers) are off for this session only.
  await client.query('SET session_replication_role = replica');
});
afterAll(async () => {
  client?.release();
  await pool?.end();
  await svc?.stop();
});

test("the store order status rule gives the spec's answer for every combination of up to three parts", async () => {
  const combos: Part[][] = [[]];
  for (let n = 1; n <= 3; n++) for (let i = 0; i < 5 ** n; i++) combos.push(Array.from({ length: n }, (_, k) => PARTS[Math.floor(i / 5 ** k) % 5]));
  // The rule as the orders domain writes it: over an order's parts (one row with no status when it has none).
  const rule = `SELECT ${statusFromParts('f', '$1::boolean')} AS s
                  FROM (SELECT ${PARTS_SUMMARY} FROM (SELECT 1) o LEFT JOIN unnest($2::text[], $3::boolean[]) AS x(status, needs_attention) ON true) f`;
  let checked = 0;
  for (const parts of combos) {
    for (const confirmed of [false, true]) {
      const {
        rows: [r],
      } = await client.query(rule, [confirmed, parts, parts.map(() => false)]);
      expect({ parts, confirmed, status: r.s }).toEqual({ parts, confirmed, status: expected(parts, confirmed) });
      checked++;
    }
  }
  expect(checked).toBe(2 * (1 + 5 + 25 + 125));
  // The examples the spec gives.
  expect(expected(['processing', 'shipped'], true)).toBe('processing');
  expect(expected(['shipped', 'delivered'], true)).toBe('shipped');
  expect(expected(['delivered', 'cancelled'], true)).toBe('delivered');
});

test("step_due (the sweeper's index) agrees with the job's next step for every record state", async () => {
  const {
    rows: [ids],
  } = await client.query('SELECT gen_random_uuid() AS store, gen_random_uuid() AS conn, gen_random_uuid() AS account');
  let n = 0;
  for (const status of SUPPLIER_ORDER_STATUSES)
    for (const cancelRequested of [false, true])
      for (const paymentStatus of ['notRequired', 'unpaid', 'paid', 'refunded'] as const)
        for (const paymentDue of [false, true])
          for (const payRequested of [false, true])
            for (const contractModel of ['standard', 'promiseToSell'] as const)
              for (const captureRequested of [false, true])
                for (const rerouteRequest of [
                  null,
                  { by: 'rule' as const, reason: 'variantUnavailable' as const, connectionId: null, actor: { kind: 'system' as const, id: null } },
                ]) {
                  const {
                    rows: [row],
                  } = await client.query(
                    `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                                payment_status, destination, created_by_account_id, cancel_requested, payment_due, pay_requested, capture_requested, reroute_request)
                   VALUES (gen_random_uuid(), $1, gen_random_uuid(), 'supplier:x', $2, 'sandbox', '1', $3, $4, 'ss-' || gen_random_uuid(), $5, '{}', $6, $7, $8, $9, $10, $11)
                   RETURNING step_due`,
                    [
                      ids.store,
                      ids.conn,
                      contractModel,
                      status,
                      paymentStatus,
                      ids.account,
                      cancelRequested,
                      paymentDue,
                      payRequested,
                      captureRequested,
                      rerouteRequest && JSON.stringify(rerouteRequest),
                    ],
                  );
                  const state = { status, cancelRequested, paymentStatus, paymentDue, payRequested, contractModel, captureRequested, rerouteRequest };
                  expect({ state, due: row.step_due }).toEqual({ state, due: nextStep(state) !== null });
                  n++;
                }
  expect(n).toBe(9 * 2 * 4 * 2 * 2 * 2 * 2 * 2);
});
