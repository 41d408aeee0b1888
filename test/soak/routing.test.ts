/**
 * The soak's routing check can fail (bench/soak/routing.ts): a choice that broke its rule, a part chosen for twice,
 * and items moved elsewhere than the chosen supplier each break "every routing choice kept its rule, once per part".
 */
import { brokenChoice, routedByRule } from '../../bench/soak/routing';
import type { Gathered, ServiceSupplierOrder } from '../../bench/soak/records';
import type { Store } from '../../bench/soak/world';

const store = { index: 1 } as Store;
const quote = (connectionId: string, storeTotalMinor: number, maxDays: number) => ({ connectionId, storeCurrency: 'USD', storeTotalMinor, maxDays });
const cheapest = { supplierOrderId: 'a1', rule: 'lowestLandedCost' as const, connectionId: 'cj', candidates: [quote('cj', 1500, 12), quote('sbx', 6500, 8)] };

function records(events: Array<{ type: string; details?: Record<string, unknown> }>, heldBy: string): Gathered {
  const first = {
    _id: 'a1',
    orderId: 'o1',
    fulfilmentGroupKey: 'supplier:sbx',
    supplierKey: 'sandbox',
    status: 'cancelled',
    reviewReason: null,
    supplierOrderNumber: 'ss-a1-1',
    supplierOrderId: null,
    payment: { status: 'unpaid' },
    attempt: 1,
    store,
    integrationId: 'sbx',
    events,
  } as ServiceSupplierOrder & { store: Store };
  const second = {
    ...first,
    _id: 'b1',
    status: 'confirmed',
    supplierKey: 'cj',
    supplierOrderNumber: 'ss-b1-1',
    integrationId: heldBy,
    events: [{ type: 'created', details: { trigger: 'routing', reroutedFrom: { from: { supplierOrderId: 'a1' } } } }],
  };
  return {
    sandbox: { orders: [], payments: [], refunds: [] },
    cj: { orders: [], payments: [] },
    aliexpress: [],
    printful: [],
    supplierOrders: new Map([
      ['a1', first],
      ['b1', second],
    ]),
    byNumberStem: new Map(),
  };
}

test('a choice that kept its rule holds; one that broke it says how', () => {
  expect(brokenChoice(cheapest, 'sbx')).toBeNull();
  expect(brokenChoice({ ...cheapest, connectionId: 'sbx' }, 'sbx')).toBe('chose 6500 when 1500 was quoted');
  const fastest = { ...cheapest, rule: 'fastest' as const, maxCostAboveCheapestPercent: 10 };
  expect(brokenChoice(fastest, 'sbx')).toBeNull(); // the faster one costs far above the cap
  expect(brokenChoice({ ...fastest, maxCostAboveCheapestPercent: 400 }, 'sbx')).toBe('chose 12 days when 8 were within the cap');
  expect(brokenChoice({ ...cheapest, candidates: [quote('cj', 1500, 12), { ...quote('sbx', 900, 8), storeCurrency: 'EUR' }] }, 'sbx')).toMatch(
    /not comparable/,
  );
  // Every quote failed: the part stays with its primary, and only there.
  expect(brokenChoice({ ...fastest, candidates: [], connectionId: 'sbx' }, 'sbx')).toBeNull();
  expect(brokenChoice({ ...fastest, candidates: [], connectionId: 'cj' }, 'sbx')).toBe('no candidate quoted, yet connection cj chosen over the primary sbx');
});

test('the soak check holds for a part routed once to where its items went, and breaks otherwise', () => {
  const routed = { type: 'routed', details: cheapest };
  expect(routedByRule(records([routed, { type: 'routedAway' }], 'cj'), 1)).toMatchObject({ held: true });
  expect(routedByRule(records([routed, { type: 'routedAway' }], 'sbx'), 1).failures[0]).toMatch(/routed to connection cj, but moved to b1 on sbx/);
  expect(routedByRule(records([routed, { type: 'routed', details: { ...cheapest, supplierOrderId: 'b1' } }], 'cj'), 1).failures[0]).toMatch(/routed 2 times/);
  expect(routedByRule(records([], 'cj'), 6).failures[0]).toMatch(/not one part routed/);
});
