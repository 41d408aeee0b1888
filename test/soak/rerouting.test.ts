/**
 * The soak's rerouting checks can fail (bench/soak/invariants/rerouting.ts): given the suppliers' records of a part
 * rerouted from the sandbox to CJ and the service's histories, a doubled live order across the two suppliers (at the
 * end, or caught by a sample during the run), a reroute asked for and lost or stuck, and a part moved to the same
 * alternate twice each break their invariant, naming the records. A sample does not mistake a reroute in flight (the
 * first order cancelled between its two reads) for two live orders.
 */
import { liveAcrossReroutes, noAlternateTwice, noTwoLiveAcrossSuppliers, reroutePending, reroutesEnded, SoEvent } from '../../bench/soak/invariants/rerouting';
import type { Gathered, ServiceSupplierOrder } from '../../bench/soak/records';
import type { Store } from '../../bench/soak/world';

const store = { index: 1 } as Store;
type Held = ServiceSupplierOrder & { store: Store; events: SoEvent[] };
const so = (id: string, supplierKey: string, status: string, events: SoEvent[]): Held => ({
  _id: id,
  orderId: 'order-1',
  fulfilmentGroupKey: `supplier:${supplierKey}`,
  supplierKey,
  status,
  reviewReason: null,
  supplierOrderNumber: `ss-${id}-1`,
  supplierOrderId: null,
  payment: { status: 'paid' },
  attempt: 1,
  store,
  events,
});
const paused = { type: 'paused', at: '2026-11-26T14:00:00Z', details: { reason: 'variantUnavailable', reroute: true } };
const rerouted = (to: string, connectionId = 'cj-conn') => ({
  type: 'rerouted',
  details: { to: { supplierOrderId: to, connectionId }, reason: 'variantUnavailable', by: 'rule' },
});
const createdFrom = (from: string) => ({ type: 'created', details: { trigger: 'reroute', reroutedFrom: { from: { supplierOrderId: from } } } });

/** A sandbox part paused and rerouted by the rule to CJ: the sandbox never made it (cancelled), CJ holds it, paid. */
function records(): Gathered {
  const first = so('aaaa', 'sandbox', 'cancelled', [{ type: 'created' }, paused, rerouted('bbbb')]);
  const second = so('bbbb', 'cj', 'shipped', [createdFrom('aaaa')]);
  const all = [first, second];
  return {
    sandbox: { orders: [{ id: 'S1', accountId: 'acct', orderNumber: 'ss-aaaa-1', status: 'cancelled', paid: false }], payments: [], refunds: [] },
    cj: { orders: [{ orderId: '1', cjOrderId: 'SD1', orderNumber: 'ss-bbbb-1', openId: 'o1', status: 'SHIPPED' }], payments: [] },
    aliexpress: [],
    printful: [],
    supplierOrders: new Map(all.map((x) => [x._id, x])),
    byNumberStem: new Map(all.map((x) => [`ss-${x._id}`, x])),
  };
}
const none = { samples: 3, failures: new Map<string, string>() };

test('a part rerouted once, its first order cancelled at the sandbox: every rerouting invariant holds, and the counts say so', () => {
  const g = records();
  const ended = reroutesEnded(g, []);
  expect([noTwoLiveAcrossSuppliers(g, none), ended.verdict, noAlternateTwice(g)].map((v) => [v.name, v.held, v.failures])).toEqual([
    ['never two live orders for the same items across suppliers', true, []],
    ['every reroute asked for ended rerouted or paused', true, []],
    ['no part moved to the same alternate twice', true, []],
  ]);
  expect(ended.counts).toEqual({ byRule: 1, byHand: 0, rerouted: 1, paused: 0 });
});

test("the first order still live at the sandbox while CJ holds the alternate's: two live orders for the same items, across suppliers", () => {
  const g = records();
  g.sandbox.orders[0].status = 'paid';
  const v = noTwoLiveAcrossSuppliers(g, none);
  expect(v.held).toBe(false);
  expect(v.failures).toEqual([
    "never two live orders for the same items across suppliers: the items of order order-1 (store 1, first sent as supplier order aaaa) have 2 live orders at their suppliers: sandbox order S1 (number ss-aaaa-1, paid) for the service's aaaa, cancelled; cj order 1 (number ss-bbbb-1, SHIPPED) for the service's bbbb, shipped",
  ]);
});

test('a sample counts an order live only if both its reads found it live: a reroute in flight passes, a real double is caught and reported at the end', () => {
  const g = records();
  // The first read: the sandbox's order still live, CJ's not made yet; the second: cancelled, and CJ's made.
  const inFlight = {
    sandbox: { ...g.sandbox, orders: [{ ...g.sandbox.orders[0], status: 'paid' }] },
    cj: { ...g.cj, orders: [] },
    aliexpress: [],
    printful: [],
  };
  expect(liveAcrossReroutes(g, inFlight)).toEqual([]);
  // Both reads found both live.
  const doubled = records();
  doubled.sandbox.orders[0].status = 'paid';
  const sampled = liveAcrossReroutes(doubled, { sandbox: doubled.sandbox, cj: doubled.cj, aliexpress: [], printful: [] });
  expect(sampled).toHaveLength(1);
  const v = noTwoLiveAcrossSuppliers(g, { samples: 3, failures: new Map([['x', `2026-11-26T14:00:30Z: ${sampled[0]}`]]) });
  expect(v.held).toBe(false);
  expect(v.failures[0]).toMatch(
    /^never two live orders for the same items across suppliers: during the run: 2026-11-26T14:00:30Z: the items of order order-1 .* have 2 live orders/,
  );
});

test('a reroute by hand answered 202 and missing from the history is lost; one asked and never ended is stuck', () => {
  const g = records();
  g.supplierOrders.set('cccc', so('cccc', 'cj', 'needsReview', [{ type: 'created' }, { type: 'paused', details: { reason: 'variantUnavailable' } }]));
  const lost = reroutesEnded(g, [{ supplierOrderId: 'cccc', storeIndex: 1, status: 202 }]).verdict;
  expect(lost.held).toBe(false);
  expect(lost.failures).toEqual([
    "every reroute asked for ended rerouted or paused: supplier order cccc (store 1, order order-1, cj, needsReview): the soak's reroute was answered 202, but its history holds no request: lost",
  ]);
  (g.supplierOrders.get('cccc') as Held).events.push({ type: 'rerouteRequested', at: '2026-11-26T14:01:00Z' });
  expect(reroutesEnded(g, [{ supplierOrderId: 'cccc', storeIndex: 1, status: 202 }]).verdict.failures).toEqual([
    'every reroute asked for ended rerouted or paused: supplier order cccc (store 1, order order-1, cj, needsReview): its reroute (by hand, asked 2026-11-26T14:01:00Z) never ended: stuck',
  ]);
  expect(reroutePending((g.supplierOrders.get('cccc') as Held).events)).toBe(true);
  // Ended with no alternate able to take it, the pause standing: held.
  (g.supplierOrders.get('cccc') as Held).events.push({ type: 'rerouteFailed', details: { tried: [] } });
  expect(reroutePending((g.supplierOrders.get('cccc') as Held).events)).toBe(false);
  expect(reroutesEnded(g, [{ supplierOrderId: 'cccc', storeIndex: 1, status: 202 }]).verdict.held).toBe(true);
});

test('rerouted to an order the service does not have, or that no supplier holds once sent: the items are lost', () => {
  const g = records();
  g.supplierOrders.delete('bbbb');
  expect(reroutesEnded(g, []).verdict.failures).toEqual([
    'every reroute asked for ended rerouted or paused: supplier order aaaa (store 1, order order-1, sandbox, cancelled): rerouted to supplier order bbbb, which the service does not have: the items are lost',
  ]);
  const h = records();
  h.cj.orders = [];
  expect(reroutesEnded(h, []).verdict.failures[0]).toMatch(
    /rerouted to supplier order bbbb \(store 1, order order-1, cj, shipped\), which no supplier holds \(number ss-bbbb-1\): the items are lost$/,
  );
});

test('a part moved to the same alternate twice (CJ, paused there, then CJ again) breaks "no part moved to the same alternate twice"', () => {
  const g = records();
  const second = g.supplierOrders.get('bbbb') as Held;
  second.status = 'cancelled';
  second.events.push(paused, rerouted('dddd'));
  const third = so('dddd', 'cj', 'submitted', [createdFrom('bbbb')]);
  g.supplierOrders.set('dddd', third);
  g.byNumberStem.set('ss-dddd', third);
  const v = noAlternateTwice(g);
  expect(v.held).toBe(false);
  expect(v.failures).toEqual([
    'no part moved to the same alternate twice: the items first sent as supplier order aaaa (order order-1) moved 2 times to the alternate on connection cj-conn: from aaaa, bbbb',
  ]);
});
