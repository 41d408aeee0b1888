import { ApiError, errors } from '../platform/errors';
import { failpoint } from '../platform/failpoints';
import type { Logger } from '../platform/logger';
import type { Standbys } from '../platform/standbys';
import type { SupplierGateway } from '../connections';
import { CircuitOpenError } from '../connections';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import type { CaptureOutcome } from '../payments';
import { shopperUnpaid } from './prechecks';
import type { SupplierOrderRecords, Work } from './records';
import { cleanReviewMessage, reasonFor } from './review-reasons';
import type { Rerouter } from './reroute';
import { FINAL } from './state-machine';
import { landedCost, type LandedCost, landedOfAnswer, type StoreRates } from './landed';
import { nextStep, Step } from './steps';
import type { DispatchRouting } from './routing';
import { absentEarlier, Evaluation, here, isRefusal, pauseOf, Refusal, sendHere, type SourcingDeps } from './sourcing';
import type { RoutingChoice, SupplierOrder } from './supplier-order';
import { DispatchEvent, failure } from './transition';

const isConflict = (err: unknown) => err instanceof ApiError && err.code === 'concurrentChange';
/** A reship's create names the claim the supplier approved it for (./claims/): the supplier charges nothing for it. */
const reship = (so: SupplierOrder) => (so.reshipOf?.supplierClaimId ? { reshipOf: so.reshipOf.supplierClaimId } : {});

/** Asks the store's payment provider to capture the shopper's payment (the payments domain); throws when it cannot be reached. */
export interface ShopperCapture {
  capture(storeId: string, orderId: string): Promise<CaptureOutcome>;
}

/**
 * The dispatch job: does whatever step the record says is due, again and again, until none is. It reads the record
 * and what the steps need once; each step's one write answers the record as written, which says what is due next.
 */
export class DispatchJob {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly gateway: SupplierGateway,
    registry: SupplierRegistry,
    private readonly shopper: ShopperCapture,
    private readonly settings: { retryLimit: number; retryBaseSeconds: number },
    private readonly log: Logger,
    private readonly rerouter: Pick<Rerouter, 'run'>,
    private readonly rates: StoreRates,
    private readonly routing: Pick<DispatchRouting, 'route'>,
    private readonly standbys: Pick<Standbys, 'confirmed' | 'waits'>,
  ) {
    this.sourcing = { registry, gateway, rates, connection: (storeId, id) => records.connection(storeId, id) };
  }

  /** What the sourcing unit reads through (./sourcing/): one evaluation per step run. */
  private readonly sourcing: SourcingDeps;

  async run(supplierOrderId: string, storeId: string): Promise<void> {
    let work = await this.records.work(supplierOrderId, storeId);
    let so: SupplierOrder | null = work?.so ?? null;
    for (let round = 0; work && so && round < 8; round++) {
      const step = nextStep(so);
      if (!step) return;
      // A reroute asked by this run's own pause: its candidates were not read with the work, which came before it.
      if (step === 'reroute' && !work.so.rerouteRequest) work = await this.records.work(supplierOrderId, so.storeId);
      if (!work) return;
      try {
        so = await this.steps[step]({ ...work, so });
      } catch (err) {
        // Someone else moved the record meanwhile (a retry, a read-back): look again.
        if (!isConflict(err)) throw err;
        so = await this.records.load(supplierOrderId, work.so.storeId);
      }
    }
  }

  private readonly steps: Record<Step, (w: Work) => Promise<SupplierOrder>> = {
    send: (w) => this.send(w),
    pay: (w) => this.pay(w),
    capture: (w) => this.capture(w),
    cancel: (w) => this.cancel(w),
    reroute: (w) => this.rerouter.run(new Evaluation(this.sourcing, w)),
  };

  private change(so: SupplierOrder, e: DispatchEvent, routed: RoutingChoice | null = null): Promise<SupplierOrder> {
    return this.records.change(so, e, undefined, routed);
  }

  private async answered(so: SupplierOrder, answer: SupplierOrderSnapshot, history: string, details: Record<string, unknown> = {}, more: { paymentDue?: boolean; payRequestDone?: boolean } = {}, landed: { storeCurrency?: string; confirmation?: LandedCost } = {}, routed: RoutingChoice | null = null) {
    return this.change(so, { type: 'supplierAnswered', answer, history, details, ...more, landed: await this.landedOf(so, answer, landed) }, routed);
  }

  private landedOf(so: SupplierOrder, answer: SupplierOrderSnapshot, given: { storeCurrency?: string; confirmation?: LandedCost }): Promise<LandedCost[]> {
    return landedOfAnswer(so, answer, given, { rates: this.rates, storeCurrency: (id) => this.records.storeCurrency(id), log: this.log });
  }

  /** A passing error: failed and retried later while retries remain, then paused; an open circuit pauses the connection's waiting parts. */
  private fail(so: SupplierOrder, err: SupplierError, routed: RoutingChoice | null = null): Promise<SupplierOrder> {
    const circuitOpen = err instanceof CircuitOpenError;
    const e = failure(so, { kind: err.kind, message: cleanReviewMessage(err.message), circuitOpen }, this.settings);
    // A choice to carry is this part's alone: the connection's other parts then pause in their own jobs.
    return circuitOpen && !routed ? this.records.changeWithConnection(so, e) : this.change(so, e, routed);
  }

  /**
   * The part's supplier as its connection stands, the shopper's payment, routing where a rule chooses, then what the
   * supplier offers now and the suppliers the part was at before (./sourcing/, one evaluation for all of it, each
   * candidate read once); then the number is looked up (a create that timed out after succeeding is found), then
   * created with the quoted shipping service.
   */
  private async send(w: Work): Promise<SupplierOrder> {
    const { so, conn, ...rest } = w;
    const ev = new Evaluation(this.sourcing, w);
    const now = here(w);
    // The connection first, whatever its items: a removed connection's unlinked items still pause as connectionMissing.
    const before = ev.admissible(isRefusal(now) ? { connectionId: so.connectionId, conn, items: [], position: null } : now) ?? shopperUnpaid(w);
    if (before) return this.refused(w, before, null);
    const routed = await this.routing.route(ev, (err, choice) => this.fail(so, err, choice));
    if (routed && 'written' in routed) return routed.written;
    const carry = routed?.carry ?? null; // routing chose this supplier: its choice rides on this step's next write (./carry.ts)
    const offer = await sendHere(ev);
    if (isRefusal(offer)) return this.refused(w, offer, carry);
    const left = await absentEarlier(ev);
    if (left) return this.refused(w, left, carry);
    const confirmation = landedCost('confirmation', { currency: offer.currency, itemsMinor: offer.itemsMinor, shippingMinor: offer.shipping.costMinor }, w.storeCurrency, offer.rate);
    // Whether payment follows is decided now, from pay now and the automation as it is when the order is sent.
    const sent = { paymentDue: so.payNow || conn.automation.automaticPayment };
    const number = { supplierOrderNumber: so.supplierOrderNumber };
    failpoint('dispatch.beforeCreate', so.id);
    let found: SupplierOrderSnapshot | null;
    try {
      found = await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
    } catch (err) {
      if (err instanceof SupplierError) return this.fail(so, err, carry);
      throw err;
    }
    if (found) {
      // The same step boundary as after a create: the supplier has the order, this part has not recorded it.
      failpoint('dispatch.afterCreate', so.id);
      return this.answered(so, found, 'foundAtSupplier', number, sent, { storeCurrency: w.storeCurrency, confirmation }, carry);
    }
    await this.held(so);
    let created: SupplierOrderSnapshot;
    const shipping = { service: offer.shipping.service, ...(offer.shipping.services ? { services: offer.shipping.services } : {}) };
    try {
      created = await this.gateway.call(conn, (a, ctx) =>
        a.createOrder(ctx, { orderNumber: so.supplierOrderNumber, items: rest.items.map((i) => ({ variantId: i.supplierVariantId!, quantity: i.quantity })), destination: so.destination, paymentDue: sent.paymentDue, shipping, ...reship(so) }),
      );
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      const reason = reasonFor(err);
      // Refused: the number was not used, so a retry may take a new one.
      if (reason) return this.change(so, pauseOf(w, new Refusal(reason, cleanReviewMessage(err.message)), { numberUnused: true }), carry);
      if (err.kind === 'orderNumberExists') return so; // the next round's look-up finds it
      return this.fail(so, err, carry);
    }
    failpoint('dispatch.afterCreate', so.id);
    return this.answered(so, created, 'createdAtSupplier', number, sent, { storeCurrency: w.storeCurrency, confirmation }, carry);
  }

  /**
   * A refusal before the create: a passing fault is failed and retried; else the part pauses with its reason, and a
   * refusal that holds for the whole connection pauses its other queued parts with it (none carrying a choice).
   */
  private refused(w: Work, r: Refusal, carry: RoutingChoice | null): Promise<SupplierOrder> {
    if (r.fault) return this.fail(w.so, r.fault, carry);
    const paused = pauseOf(w, r);
    return r.scope === 'connection' && !carry ? this.records.changeWithConnection(w.so, paused) : this.change(w.so, paused, carry);
  }

  /**
   * A number's first use waits until the standbys hold the record that names it, then reads the record again (a
   * failover meanwhile may have taken it back, and the standbys asked were the promoted server's): an order made from
   * a record that was lost would be one no record finds again (docs/decisions.md, "A database that fails over").
   */
  private async held(so: SupplierOrder): Promise<void> {
    if (!this.standbys.waits) return; // no standby declared: nothing to wait for, no failover to read again after
    if (!(await this.standbys.confirmed())) throw new Error('a database standby has not confirmed the supplier order record yet: it is not sent until one has');
    const now = await this.records.load(so.id, so.storeId);
    if (!now || now.status !== so.status || now.supplierOrderNumber !== so.supplierOrderNumber) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
  }

  /** Reads the supplier's own status first: an order already paid there is recorded, never paid again. */
  private async pay(w: Work): Promise<SupplierOrder> {
    const { so, conn } = w;
    const settled = { payRequestDone: true };
    try {
      const before = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!));
      const landed = { storeCurrency: w.storeCurrency };
      if (before.paid) return this.answered(so, before, 'alreadyPaidAtSupplier', {}, settled, landed);
      failpoint('dispatch.beforePay', so.id);
      const paid = await this.gateway.call(conn, (a, ctx) => a.payOrder(ctx, so.supplierOrderId!));
      failpoint('dispatch.afterPay', so.id);
      return this.answered(so, paid, 'paid', so.payNow ? { payNow: true } : {}, settled, landed);
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind === 'alreadyPaid') return this.answered(so, await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!)), 'alreadyPaidAtSupplier', {}, settled, { storeCurrency: w.storeCurrency });
      const reason = reasonFor(err);
      if (reason) return this.change(so, pauseOf(w, new Refusal(reason, cleanReviewMessage(err.message))));
      throw err; // a passing error: the order stays submitted, the queue retries the job
    }
  }

  /**
   * Promise to sell: once the supplier accepted, the payment provider is asked to capture the shopper's payment. Its
   * idempotency key makes a request repeated after a crash between asking and recording charge once; a refusal
   * pauses at once; a provider that cannot be reached throws, and the queue asks again after a backoff.
   */
  private async capture({ so }: Work): Promise<SupplierOrder> {
    failpoint('dispatch.beforeCapture', so.id);
    const outcome = await this.shopper.capture(so.storeId, so.orderId);
    failpoint('dispatch.afterCapture', so.id);
    return this.change(so, outcome.kind === 'requested' ? { type: 'captureRequested', reference: outcome.reference } : { type: 'captureFailed', message: cleanReviewMessage(outcome.message) });
  }

  /**
   * Withdraws the order at the supplier, asking it first: the supplier may hold an order our record does not know
   * of, or may have shipped it. Shipped, known before or learnt during the cancel: paused as supplierAlreadyShipped,
   * with the shipment's carrier and tracking.
   */
  private async cancel({ so, conn }: Work): Promise<SupplierOrder> {
    if (FINAL.has(so.status)) return this.change(so, { type: 'cancelRequestCleared' });
    if (so.status === 'shipped') return this.change(so, { type: 'cancelTooLate', answer: null });
    try {
      const answer = so.supplierOrderId
        ? await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!))
        : conn.credentialsSealed && conn.enabled
          ? await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber))
          : null;
      if (!answer || answer.status === 'cancelled') return this.change(so, { type: 'cancelled', answer, withdrawn: false });
      if (answer.status === 'shipped' || answer.status === 'delivered') return this.change(so, { type: 'cancelTooLate', answer });
      const after = await this.gateway.call(conn, (a, ctx) => a.cancelOrder(ctx, answer.supplierOrderId));
      return this.change(so, { type: 'cancelled', answer: after, withdrawn: true });
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind === 'notFound') return this.change(so, { type: 'cancelled', answer: null, withdrawn: false });
      // It shipped between our look and our cancel: its answer now carries the shipment.
      if (err.kind === 'alreadyShipped') return this.change(so, { type: 'cancelTooLate', answer: await this.shipment(so, conn).catch(() => null) });
      const reason = reasonFor(err);
      // The supplier refuses to withdraw it (for example once paid): a person decides.
      // A part a move brought here names where it came from: a person then sees both orders (the one before holds none).
      const before = so.earlier.map((e) => `${e.supplierKey} order ${e.supplierOrderNumber}`).join(', ');
      const from = before ? ` The part came here from ${before}, shown to hold no live order for it.` : '';
      if (reason) return this.change(so, { type: 'cancelRefused', reason, message: `The supplier refused to cancel: ${cleanReviewMessage(err.message)}${from}` });
      throw err; // a passing error: the queue retries the job
    }
  }

  private shipment(so: SupplierOrder, conn: Work['conn']): Promise<SupplierOrderSnapshot | null> {
    return so.supplierOrderId ? this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!)) : this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
  }
}
