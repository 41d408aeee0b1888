/**
 * The soak's checks can fail (bench/soak/invariants): given the suppliers' and the provider's records of a doubled
 * order, a doubled payment, a forgotten order, or memory and connections that climb, each says which invariant broke,
 * which record, and what each side holds. The soak itself (npm run soak) runs them on what its run left.
 */
import { connectionsFlat, rssFlat } from '../../bench/soak/invariants/leaks';
import { noDoublePayment, noDuplicateSupplierOrders } from '../../bench/soak/invariants/money';
import type { Deployment } from '../../bench/soak/deployments';
import type { Series } from '../../bench/soak/monitor';
import type { Gathered, ServiceSupplierOrder } from '../../bench/soak/records';
import type { Store } from '../../bench/soak/world';

const store = { index: 1 } as Store;
const so = (id: string, number: string, extra: Partial<ServiceSupplierOrder> = {}) => ({
  _id: id,
  orderId: `order-${id}`,
  fulfilmentGroupKey: 'supplier:c1',
  supplierKey: 'cj',
  status: 'confirmed',
  reviewReason: null,
  supplierOrderNumber: number,
  supplierOrderId: null,
  payment: { status: 'paid' },
  attempt: 1,
  store,
  ...extra,
});

/** Records of one part, sent once: one CJ order, paid once; the service's supplier order for it. */
function records(): Gathered {
  const mine = so('a1', 'ss-aaaa-1');
  return {
    sandbox: { orders: [], payments: [], refunds: [] },
    cj: {
      orders: [{ orderId: '1', cjOrderId: 'SD1', orderNumber: 'ss-aaaa-1', openId: 'o1', status: 'UNSHIPPED' }],
      payments: [{ orderId: '1', orderNumber: 'ss-aaaa-1', openId: 'o1', amountCents: 900, source: 'api' }],
    },
    aliexpress: [],
    printful: [],
    supplierOrders: new Map([['a1', mine]]),
    byNumberStem: new Map([['ss-aaaa', mine]]),
  };
}

test('one order, paid once: every money invariant holds', () => {
  const g = records();
  expect([...noDuplicateSupplierOrders(g), noDoublePayment(g)].map((v) => [v.name, v.held, v.failures])).toEqual([
    ['no duplicate supplier order per number', true, []],
    ['no duplicate supplier order per order part', true, []],
    ['no double payment at any supplier', true, []],
  ]);
});

test("the same number twice at CJ (a create repeated after a time-out) breaks both duplicate checks, naming both orders and the service's record", () => {
  const g = records();
  g.cj.orders.push({ orderId: '2', cjOrderId: 'SD2', orderNumber: 'ss-aaaa-1', openId: 'o1', status: 'CREATED' });
  const [byNumber, byPart] = noDuplicateSupplierOrders(g);
  expect(byNumber.held).toBe(false);
  expect(byNumber.failures[0]).toBe(
    'no duplicate supplier order per number: cj holds 2 orders numbered ss-aaaa-1: cj order 1 (account o1, number ss-aaaa-1, UNSHIPPED, paid); cj order 2 (account o1, number ss-aaaa-1, CREATED); ' +
      "the service's supplier order a1 (store 1, order order-a1, part supplier:c1) is confirmed, attempt 1, supplier order id none",
  );
  expect(byPart.failures[0]).toMatch(/^no duplicate supplier order per order part: order order-a1, part supplier:c1 has 2 live orders at its suppliers/);
});

test('a second attempt made while the first is still live breaks the per-part check; once the first is cancelled it holds', () => {
  const g = records();
  g.cj.orders.push({ orderId: '2', cjOrderId: 'SD2', orderNumber: 'ss-aaaa-2', openId: 'o1', status: 'CREATED' });
  expect(noDuplicateSupplierOrders(g).map((v) => v.held)).toEqual([true, false]);
  g.cj.orders[0].status = 'CANCELLED';
  expect(noDuplicateSupplierOrders(g).map((v) => v.held)).toEqual([true, true]);
});

test('an order at a supplier that answers to no supplier order of the service is an order made and forgotten', () => {
  const g = records();
  g.cj.orders.push({ orderId: '9', cjOrderId: 'SD9', orderNumber: 'ss-ffff-1', openId: 'o1', status: 'CREATED' });
  expect(noDuplicateSupplierOrders(g)[1].failures).toEqual([
    'no duplicate supplier order per order part: cj order 9 (account o1, number ss-ffff-1, CREATED) answers to no supplier order the service has: an order made and then forgotten',
  ]);
});

test('two payments of one CJ order break "no double payment", whoever made them', () => {
  const g = records();
  g.cj.payments.push({ orderId: '1', orderNumber: 'ss-aaaa-1', openId: 'o1', amountCents: 900, source: 'api' });
  const v = noDoublePayment(g);
  expect(v.held).toBe(false);
  expect(v.failures[0]).toMatch(
    /^no double payment at any supplier: CJ took 2 payments \(900 by api, 900 by api\) for its order 1 \(number ss-aaaa-1\); the service's supplier order a1/,
  );
});

test('a sandbox payment refunded and paid again is one payment; a part paid at two suppliers is two', () => {
  const g = records();
  g.sandbox.payments.push(
    { orderId: 'S1', orderNumber: 'ss-bbbb-1', amountMinor: 500, accountId: 'acct' },
    { orderId: 'S1', orderNumber: 'ss-bbbb-1', amountMinor: 500, accountId: 'acct' },
  );
  g.sandbox.refunds.push({ orderId: 'S1' });
  g.sandbox.orders.push({ id: 'S1', accountId: 'acct', orderNumber: 'ss-bbbb-1', status: 'paid', paid: true });
  const other = so('b1', 'ss-bbbb-1', { orderId: 'order-a1' });
  g.supplierOrders.set('b1', other);
  g.byNumberStem.set('ss-bbbb', other);
  const v = noDoublePayment(g);
  expect(v.failures).toEqual([
    expect.stringMatching(/^no double payment at any supplier: one order part was paid 2 times at its suppliers: sandbox order S1 .*; cj order 1 /),
  ]);
});

const series = (name: string, kind: Series['kind'], values: number[], start = 0): Series => ({
  name,
  kind,
  pid: 42,
  samples: values.map((value, i) => ({ at: start + i * 5000, value })),
});
const half = { from: 60000, to: 180000 };

test('memory: a process that climbs steadily over the last half breaks "RSS flat"; one that levels off, or a sawtooth of collections, holds', () => {
  const climbing = series(
    'own api',
    'rss',
    Array.from({ length: 36 }, (_, i) => 150 + i * 8),
  );
  const levelled = series(
    'own worker 1',
    'rss',
    Array.from({ length: 36 }, (_, i) => 150 + Math.min(i, 14) * 2 + (i % 3)),
  );
  const sawtooth = series(
    'own worker 2',
    'rss',
    Array.from({ length: 36 }, (_, i) => 150 + (i % 18) * 6),
  );
  const v = rssFlat([climbing, levelled, sawtooth], half);
  expect(v.held).toBe(false);
  expect(v.failures).toEqual([
    expect.stringMatching(
      /^RSS flat over the last half: own api \(pid 42\) grew: its lowest sample in the last third of the last half is 374 MB, its highest in the first third 302 MB \(60 MB allowed\)/,
    ),
  ]);
  expect(rssFlat([levelled, sawtooth], half).held).toBe(true);
});

test('connections: above what the processes may open, or climbing, breaks "connections flat"', () => {
  const deployment = { name: 'own', processes: [{}, {}] } as Deployment;
  const steady = series(
    'own',
    'connections',
    Array.from({ length: 36 }, (_, i) => 20 + (i % 4)),
  );
  expect(connectionsFlat([steady], [deployment], half).held).toBe(true);
  const climbing = series(
    'own',
    'connections',
    Array.from({ length: 36 }, (_, i) => 10 + Math.floor(i / 2)),
  );
  expect(connectionsFlat([climbing], [deployment], half).failures).toEqual([
    expect.stringMatching(/^open connections flat over the last half: own's connections climbed: at most \d+ in the first third/),
  ]);
  const over = series(
    'own',
    'connections',
    Array.from({ length: 36 }, () => 60),
  );
  for (const s of over.samples) s.detail = 'store-suppliers 40, store-suppliers-jobs 20';
  expect(connectionsFlat([over], [deployment], half).failures[0]).toMatch(
    /^open connections flat over the last half: own had 60 connections open \(store-suppliers 40, store-suppliers-jobs 20\), above the 38 its 2 processes may open: 60 60/,
  );
});
