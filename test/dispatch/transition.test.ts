/**
 * The one transition, walked for every (status × payment status × event): an event the table lists for the record
 * is applied as its row says (next status, payment status, history, the part's move, the step then due), and every
 * other is refused. Then the spec's rules, read off the same walk: final statuses stay final, a paused order clears
 * only by a caller's retry, the supplier's answers only move forwards, and a late cancel pauses with
 * supplierAlreadyShipped and keeps the shipment.
 */
import type { SupplierOrderSnapshot } from '../../server/suppliers/adapter';
import {
  EVENTS,
  ImpossibleMoveError,
  MOVE_TABLE,
  moveOf,
  MoveEvent,
  partStatusOf,
  PROGRESS_RANK,
  SUPPLIER_ORDER_STATUSES,
  SupplierOrderStatus,
} from '../../server/dispatch/state-machine';
import { nextStep } from '../../server/dispatch/steps';
import type { RoutingChoice, SupplierOrder, SupplierPaymentStatus } from '../../server/dispatch/supplier-order';
import { carrying } from '../../server/dispatch/carry';
import type { Change } from '../../server/dispatch/change';
import type { DispatchEvent } from '../../server/dispatch/dispatch-event';
import { failure, transition } from '../../server/dispatch/transition';

const PAYMENTS: SupplierPaymentStatus[] = ['notRequired', 'unpaid', 'paid', 'refunded'];
const KEY = { kind: 'key' as const, id: 'k1' };
const SHIPPED = { carrier: 'SandboxPost', trackingNumber: 'SBX1', shippedAt: '2026-01-02T03:04:05.000Z' };

function record(status: SupplierOrderStatus, paymentStatus: SupplierPaymentStatus, more: Partial<SupplierOrder> = {}): SupplierOrder {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    id: '00000000-0000-4000-8000-000000000001',
    storeId: 's',
    orderId: 'o',
    partKey: 'supplier:c',
    connectionId: 'c',
    supplierKey: 'sandbox',
    orderNumber: '1',
    contractModel: 'promiseToSell',
    status,
    reviewReason: null,
    reviewMessage: null,
    retryable: null,
    supplierOrderNumber: 'ss-1-1',
    numberKnownAbsent: false,
    supplierOrderId: null,
    supplierStatus: null,
    costs: null,
    paymentStatus,
    shipping: null,
    attempt: 1,
    payNow: false,
    payRequested: false,
    cancelRequested: false,
    paymentDue: false,
    captureRequested: false,
    storeTakesOver: false,
    acceptedCostMinor: null,
    rerouteRequest: null,
    rerouteTried: [],
    reroutedTo: null,
    returns: [],
    routing: null,
    earlier: [],
    delivery: null,
    deliveryDueAt: null,
    reshipOf: null,
    destination: { name: 'A', line1: '1', city: 'X', postalCode: '1', country: 'US' },
    retriesUsed: 0,
    nextRetryAt: null,
    createdByAccountId: 'a',
    createdByKeyId: null,
    createdAt: at,
    updatedAt: at,
    ...more,
  };
}

const answer = (status: SupplierOrderSnapshot['status']): SupplierOrderSnapshot => ({
  supplierOrderId: 'SBX-O1',
  orderNumber: 'ss-1-1',
  supplierStatus: status.toUpperCase(),
  status,
  paid: status !== 'created' && status !== 'cancelled',
  costs: { itemsMinor: 100, shippingMinor: 10, totalMinor: 110, currency: 'USD' },
  shipping: status === 'shipped' || status === 'delivered' ? SHIPPED : null,
});

const WATCH = {
  noTrackingDays: 7,
  noMovementHours: 72,
  overdueGraceDays: 3,
  exceptions: ['returnedToSender' as const, 'failedDelivery' as const, 'customsHold' as const],
};
const REROUTE = { by: 'manual' as const, reason: 'variantUnavailable' as const, connectionId: null, actor: KEY };

/** One event of each kind the table names. */
const SAMPLES: Record<MoveEvent, DispatchEvent> = {
  create: { type: 'create', actor: KEY, trigger: 'submit', record: { ...record('queued', 'unpaid'), payNow: false } },
  retry: { type: 'retry', actor: KEY },
  automaticRetry: { type: 'automaticRetry' },
  payRequested: { type: 'payRequested', actor: KEY },
  cancelRequested: { type: 'cancelRequested', actor: KEY, storeTakesOver: false },
  supplierCreated: { type: 'supplierAnswered', answer: answer('created'), history: 'readBack' },
  supplierPaid: { type: 'supplierAnswered', answer: answer('paid'), history: 'readBack' },
  supplierProcessing: { type: 'supplierAnswered', answer: answer('processing'), history: 'readBack' },
  supplierShipped: { type: 'supplierAnswered', answer: answer('shipped'), history: 'readBack' },
  supplierDelivered: { type: 'supplierAnswered', answer: answer('delivered'), history: 'readBack' },
  supplierCancelled: { type: 'supplierAnswered', answer: answer('cancelled'), history: 'readBack' },
  paused: { type: 'paused', reason: 'variantUnavailable', message: 'gone' },
  failed: { type: 'failed', error: 'timeout', message: 'slow', retryInSeconds: 2 },
  captureRequested: { type: 'captureRequested', reference: 'pay_1' },
  captureFailed: { type: 'captureFailed', message: 'The card issuer declined.' },
  cancelled: { type: 'cancelled', answer: answer('cancelled'), withdrawn: true },
  cancelRefused: { type: 'cancelRefused', reason: 'supplierRefused', message: 'no' },
  cancelTooLate: { type: 'cancelTooLate', answer: answer('shipped') },
  cancelRequestCleared: { type: 'cancelRequestCleared' },
  rerouteRequested: { type: 'rerouteRequested', actor: KEY, request: REROUTE },
  rerouted: {
    type: 'rerouted',
    actor: KEY,
    to: '00000000-0000-4000-8000-000000000002',
    details: { reason: 'variantUnavailable', costDifferenceMinor: 12 },
    answer: null,
  },
  rerouteEnded: {
    type: 'rerouteEnded',
    tried: [{ connectionId: 'c2', position: 0, supplierKey: 'cj', why: 'it has 0 of SKU-1; the order needs 1' }],
    message: 'Not rerouted: no alternate could take the part.',
  },
  routedAway: { type: 'routedAway', to: '00000000-0000-4000-8000-000000000002', details: {} },
  deliveryWatched: { type: 'deliveryWatched', watch: WATCH },
  attentionAcknowledged: { type: 'attentionAcknowledged', actor: KEY, reason: 'noMovement', watch: WATCH },
  claimRecorded: { type: 'claimRecorded', actor: KEY, kind: 'claimOpened', details: { claim: { _id: 'c1' } } },
  returnRecorded: { type: 'returnRecorded', actor: KEY, kind: 'returnRecorded', details: { return: { _id: 'r1' } } },
};

/** Every (status, payment status, event) and what the transition made of it: a change, or null when refused. */
const walked: Array<{ status: SupplierOrderStatus; payment: SupplierPaymentStatus; event: MoveEvent; change: Change | null }> = [];
for (const status of SUPPLIER_ORDER_STATUSES)
  for (const payment of PAYMENTS)
    for (const event of EVENTS) {
      let change: Change | null = null;
      try {
        change = transition(record(status, payment), SAMPLES[event]);
      } catch (err) {
        if (!(err instanceof ImpossibleMoveError)) throw err;
      }
      walked.push({ status, payment, event, change });
    }
const allowed = (event: MoveEvent) => walked.filter((w) => w.event === event && w.change);
const fromsOf = (event: MoveEvent) => [...new Set(allowed(event).map((w) => w.status))].sort();

test('every (status × payment status × event): applied exactly as its row says, refused when no row lists it', () => {
  expect(walked).toHaveLength(SUPPLIER_ORDER_STATUSES.length * PAYMENTS.length * EVENTS.length);
  for (const { status, payment, event, change } of walked) {
    const row = moveOf(status, payment, event);
    const at = { status, payment, event };
    expect({ ...at, allowed: !!change }).toEqual({ ...at, allowed: !!row && event !== 'create' });
    if (!change || !row) continue;
    expect({ ...at, from: change.from, to: change.to }).toEqual({ ...at, from: status, to: row.to === 'same' ? status : row.to });
    expect(change.after.status).toBe(change.to);
    expect(change.next).toBe(nextStep(change.after));
    expect(change.history.type).toMatch(/^[a-zA-Z]+$/);
    if (change.part?.kind === 'follow' && event !== 'cancelTooLate' && !(event === 'captureFailed' && change.to === 'needsReview'))
      expect(change.part.status).toBe(partStatusOf(change.to));
  }
  // A record is made only from nothing, queued, with its part pending.
  const made = transition(null, SAMPLES.create);
  expect({ from: made.from, to: made.to, payment: made.after.paymentStatus, history: made.history.type, next: made.next }).toEqual({
    from: null,
    to: 'queued',
    payment: 'unpaid',
    history: 'created',
    next: 'send',
  });
  expect(made.part).toEqual({ kind: 'follow', status: 'pending', shipment: null, needsAttention: false });
});

test('the table is a function: at most one row per (status, payment status, event), and every row is used', () => {
  for (const status of ['none', ...SUPPLIER_ORDER_STATUSES] as const)
    for (const payment of PAYMENTS)
      for (const event of EVENTS)
        expect(
          MOVE_TABLE.filter((m) => m.event === event && m.from.includes(status) && (!m.payment || m.payment.includes(payment))).length,
        ).toBeLessThanOrEqual(1);
  for (const m of MOVE_TABLE) expect(walked.some((w) => w.change && w.event === m.event && m.from.includes(w.status)) || m.event === 'create').toBe(true);
});

test("the spec's moves: retry from queued, needsReview or failed; the background retry from failed; pay on a submitted, unpaid order", () => {
  expect(fromsOf('retry')).toEqual(['failed', 'needsReview', 'queued']);
  expect(allowed('retry').every((w) => w.change!.to === 'queued')).toBe(true);
  expect(fromsOf('automaticRetry')).toEqual(['failed']);
  expect(allowed('payRequested').map((w) => [w.status, w.payment])).toEqual([['submitted', 'unpaid']]);
});

test('final statuses stay final; a paused order leaves review only through a retry (back to the queue), a cancel, or a reroute (its items gone to an alternate)', () => {
  for (const w of walked.filter((x) => x.change && (x.status === 'delivered' || x.status === 'cancelled'))) expect(w.change!.to).toBe(w.status);
  const outOfReview = walked.filter((w) => w.status === 'needsReview' && w.change && w.change.to !== 'needsReview');
  expect([...new Set(outOfReview.map((w) => `${w.event}->${w.change!.to}`))].sort()).toEqual(['cancelled->cancelled', 'rerouted->cancelled', 'retry->queued']);
});

test("the supplier's answers are taken in every status, move only forwards, and never clear a pause or a failure", () => {
  for (const event of EVENTS.filter((e) => e.startsWith('supplier'))) {
    expect(fromsOf(event)).toEqual([...SUPPLIER_ORDER_STATUSES].sort());
    for (const { status, change } of allowed(event)) {
      expect(PROGRESS_RANK[change!.to]).toBeGreaterThanOrEqual(PROGRESS_RANK[status]);
      if (status === 'needsReview' || status === 'failed') expect(change!.to).toBe(status);
    }
  }
  // Payment follows the supplier: paid there is paid here; cancelled after being paid is refunded.
  expect(transition(record('submitted', 'unpaid'), SAMPLES.supplierPaid).after.paymentStatus).toBe('paid');
  expect(transition(record('confirmed', 'paid'), SAMPLES.supplierCancelled).after.paymentStatus).toBe('refunded');
});

test('a cancel that comes after the supplier shipped pauses with supplierAlreadyShipped and keeps the shipment, known before or learnt during it', () => {
  const cases = [
    // Learnt before: the record is shipped (with its shipment) when the cancel is asked for.
    { before: record('shipped', 'paid', { shipping: SHIPPED, cancelRequested: true }), e: { type: 'cancelTooLate', answer: null } as DispatchEvent },
    // Learnt during: the supplier's answer to the cancel says shipped.
    { before: record('confirmed', 'paid', { cancelRequested: true, storeTakesOver: true }), e: SAMPLES.cancelTooLate },
  ];
  for (const { before, e } of cases) {
    const c = transition(before, e);
    expect(c.to).toBe('needsReview');
    expect(c.after).toMatchObject({
      reviewReason: 'supplierAlreadyShipped',
      retryable: false,
      shipping: SHIPPED,
      cancelRequested: false,
      storeTakesOver: false,
    });
    expect(c.part).toEqual({ kind: 'follow', status: 'shipped', shipment: { ...SHIPPED, deliveredAt: null }, needsAttention: true });
    expect(c.next).toBeNull();
  }
  // Asking for the cancel of a shipped order is taken (the job then pauses it); a delivered or cancelled one is refused.
  expect(fromsOf('cancelRequested')).toEqual(['confirmed', 'failed', 'needsReview', 'processing', 'queued', 'shipped', 'submitted']);
});

test('promise to sell: the capture is due once the supplier was paid, asked once, and a refusal pauses the part while its goods go on', () => {
  const accepted = record('confirmed', 'paid', { contractModel: 'promiseToSell' });
  expect(nextStep(accepted)).toBe('capture');
  const asked = transition(accepted, SAMPLES.captureRequested);
  expect({ to: asked.to, captureRequested: asked.after.captureRequested, history: asked.history.type, next: asked.next, part: asked.part }).toEqual({
    to: 'confirmed',
    captureRequested: true,
    history: 'captureRequested',
    next: null,
    part: null,
  });
  const refused = transition(accepted, SAMPLES.captureFailed);
  expect(refused.after).toMatchObject({ status: 'needsReview', reviewReason: 'customerCaptureFailed', retryable: false, captureRequested: false });
  expect(refused.after.reviewMessage).toContain('The card issuer declined.');
  // The supplier was paid: the goods are being prepared (or shipped), the shopper's charge waits for a person.
  expect(refused.part).toEqual({ kind: 'follow', status: 'processing', shipment: null, needsAttention: true });
  expect(transition(record('shipped', 'paid', { contractModel: 'promiseToSell', shipping: SHIPPED }), SAMPLES.captureFailed).part).toMatchObject({
    status: 'shipped',
    needsAttention: true,
  });
  // Final stays final: a delivered order records the refusal and stops asking.
  const late = transition(record('delivered', 'paid', { contractModel: 'promiseToSell' }), SAMPLES.captureFailed);
  expect({ to: late.to, captureRequested: late.after.captureRequested, history: late.history.type, next: late.next }).toEqual({
    to: 'delivered',
    captureRequested: true,
    history: 'captureFailed',
    next: null,
  });
});

test('a passing error is retried after a backoff while retries remain, then pauses as connectionUnhealthy', () => {
  const settings = { retryLimit: 2, retryBaseSeconds: 5 };
  const err = { kind: 'timeout', message: 'slow', circuitOpen: false };
  expect(failure(record('queued', 'unpaid'), err, settings)).toMatchObject({ type: 'failed', retryInSeconds: 5 });
  expect(failure(record('queued', 'unpaid', { retriesUsed: 1 }), err, settings)).toMatchObject({ type: 'failed', retryInSeconds: 10 });
  expect(failure(record('queued', 'unpaid', { retriesUsed: 2 }), err, settings)).toMatchObject({ type: 'paused', reason: 'connectionUnhealthy' });
  expect(failure(record('queued', 'unpaid'), { ...err, circuitOpen: true }, settings)).toMatchObject({ type: 'paused', reason: 'connectionUnhealthy' });
});

test('a reroute: asked only of a paused order, due as a step while asked; done, the order is cancelled with its part; ended, the pause stands and lists the alternates tried', () => {
  expect(fromsOf('rerouteRequested')).toEqual(['needsReview']);
  expect(fromsOf('rerouted')).toEqual(['needsReview']);
  const paused = record('needsReview', 'unpaid', { reviewReason: 'variantUnavailable', reviewMessage: 'The supplier has 0 of SKU-1.' });
  const asked = transition(paused, SAMPLES.rerouteRequested);
  expect({ to: asked.to, next: asked.next, part: asked.part, history: asked.history.type }).toEqual({
    to: 'needsReview',
    next: 'reroute',
    part: null,
    history: 'rerouteRequested',
  });
  const done = transition(asked.after, SAMPLES.rerouted);
  expect({ to: done.to, next: done.next, reroutedTo: done.after.reroutedTo, request: done.after.rerouteRequest, history: done.history }).toEqual({
    to: 'cancelled',
    next: null,
    reroutedTo: '00000000-0000-4000-8000-000000000002',
    request: null,
    history: { actor: KEY, type: 'rerouted', details: { reason: 'variantUnavailable', costDifferenceMinor: 12 } },
  });
  expect(done.part).toEqual({ kind: 'follow', status: 'cancelled', shipment: null, needsAttention: false });
  const ended = transition(asked.after, SAMPLES.rerouteEnded);
  expect({ to: ended.to, next: ended.next, part: ended.part, request: ended.after.rerouteRequest, tried: ended.after.rerouteTried.length }).toEqual({
    to: 'needsReview',
    next: null,
    part: null,
    request: null,
    tried: 1,
  });
  expect(ended.after.reviewMessage).toBe(
    'The supplier has 0 of SKU-1. Not rerouted: no alternate could take the part. Alternates tried: 1. cj: it has 0 of SKU-1; the order needs 1.',
  );
  // A pause the rule reroutes carries the request in the same write: the step is due at once.
  expect(transition(record('queued', 'unpaid'), { ...SAMPLES.paused, reroute: { ...REROUTE, by: 'rule' } } as DispatchEvent).next).toBe('reroute');
  // A retry drops a reroute asked and not yet done.
  expect(transition(asked.after, SAMPLES.retry).after.rerouteRequest).toBeNull();
});

test('a returned package is recorded once, by tracking number, as packageReturned; the status stays, and an answer naming it again records nothing', () => {
  const two = { ...SHIPPED, trackingNumber: 'PF-A, PF-B' };
  const delivered = record('delivered', 'paid', { shipping: two });
  const returning: DispatchEvent = {
    type: 'supplierAnswered',
    answer: { ...answer('delivered'), shipping: two, returns: [{ carrier: 'USPS', trackingNumber: 'PF-A' }] },
    history: 'readBack',
  };
  const first = transition(delivered, returning, new Date('2026-01-03T00:00:00Z'));
  expect(first.to).toBe('delivered');
  expect(first.fields.returns).toEqual([{ carrier: 'USPS', trackingNumber: 'PF-A', at: '2026-01-03T00:00:00.000Z' }]);
  expect(first.history).toMatchObject({ type: 'packageReturned', details: { via: 'readBack', returned: [{ carrier: 'USPS', trackingNumber: 'PF-A' }] } });
  const again = transition(first.after, returning);
  expect(again.fields.returns).toBeUndefined();
  expect(again.history.type).toBe('readBack');
  const second = transition(first.after, {
    ...returning,
    answer: {
      ...returning.answer,
      returns: [
        { carrier: 'USPS', trackingNumber: 'PF-A' },
        { carrier: 'DHL', trackingNumber: 'PF-B' },
      ],
    },
  } as DispatchEvent);
  expect(second.fields.returns?.map((r) => r.trackingNumber)).toEqual(['PF-A', 'PF-B']);
  expect(second.history.details.returned).toEqual([{ carrier: 'DHL', trackingNumber: 'PF-B' }]);
});

test('routing: the choice rides on a change of a queued order (its entry first, the routing column), and the move away cancels it naming where the items went', () => {
  expect(fromsOf('routedAway')).toEqual(['queued']);
  const choice: RoutingChoice = {
    supplierOrderId: '00000000-0000-4000-8000-000000000001',
    rule: 'lowestLandedCost',
    connectionId: 'c2',
    why: 'The lowest landed cost.',
    candidates: [],
    excluded: [],
  };
  const away = carrying(transition(record('queued', 'unpaid'), SAMPLES.routedAway), choice);
  expect({
    to: away.to,
    reroutedTo: away.after.reroutedTo,
    routing: away.after.routing,
    type: away.history.type,
    routed: away.routed?.type,
    next: away.next,
  }).toEqual({
    to: 'cancelled',
    reroutedTo: '00000000-0000-4000-8000-000000000002',
    routing: choice,
    type: 'routedAway',
    routed: 'routed',
    next: null,
  });
});

test("a person's cancel is taken while a reroute is asked, and ends it: the reroute step is no longer due, the cancel is", () => {
  const paused = { ...record('needsReview', 'unpaid'), rerouteRequest: REROUTE };
  expect(nextStep(paused)).toBe('reroute');
  const c = transition(paused, SAMPLES.cancelRequested);
  expect(c.guard).toEqual([]);
  expect({ cancelRequested: c.after.cancelRequested, rerouteRequest: c.after.rerouteRequest, next: c.next, details: c.history.details }).toEqual({
    cancelRequested: true,
    rerouteRequest: null,
    next: 'cancel',
    details: { rerouteWithdrawn: true },
  });
  // The move of a reroute under way then finds the cancel, by its guard.
  expect(transition(paused, SAMPLES.rerouted).guard).toEqual(['reroute', 'noCancel']);
});
