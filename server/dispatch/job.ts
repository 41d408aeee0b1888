import { ApiError, errors } from '../platform/errors';
import { failpoint } from '../platform/failpoints';
import type { Logger } from '../platform/logger';
import type { Standbys } from '../platform/standbys';
import type { SupplierGateway } from '../connections';
import { CircuitOpenError } from '../connections';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import { shopperUnpaid } from './prechecks';
import type { SupplierOrderRecords } from './records';
import type { Work } from './work';
import { cleanReviewMessage, reasonFor } from './review-reasons';
import type { Rerouter } from './reroute';
import { landedCost, type LandedCost, landedOfAnswer, type StoreRates } from './landed';
import { nextStep, Step } from './steps';
import type { DispatchRouting } from './routing';
import { absentEarlier, Evaluation, here, isRefusal, pauseOf, Refusal, sendHere, type SourcingDeps } from './sourcing';
import type { RoutingChoice, SupplierOrder } from './supplier-order';
import type { DispatchEvent } from './dispatch-event';
import { failure } from './transition';
import { cancelAtSupplier } from './cancel-step';
import { captureFromShopper, payAtSupplier, type ShopperCapture } from './payment-steps';

const isConflict = (err: unknown) => err instanceof ApiError && err.code === 'concurrentChange';
/** A reship's create names the claim the supplier approved it for (./claims/): the supplier charges nothing for it. */
const reship = (so: SupplierOrder) => (so.reshipOf?.supplierClaimId ? { reshipOf: so.reshipOf.supplierClaimId } : {});

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
    pay: (w) => payAtSupplier(w, this.gateway, this),
    capture: (w) => captureFromShopper(w, this.shopper, this),
    cancel: (w) => cancelAtSupplier(w, this.gateway, (so, e) => this.change(so, e)),
    reroute: (w) => this.rerouter.run(new Evaluation(this.sourcing, w)),
  };

  /** One write of the record (./records.ts); the step modules write through it and `answered`. */
  change(so: SupplierOrder, e: DispatchEvent, routed: RoutingChoice | null = null): Promise<SupplierOrder> {
    return this.records.change(so, e, undefined, routed);
  }

  async answered(
    so: SupplierOrder,
    answer: SupplierOrderSnapshot,
    history: string,
    details: Record<string, unknown> = {},
    more: { paymentDue?: boolean; payRequestDone?: boolean } = {},
    landed: { storeCurrency?: string; confirmation?: LandedCost } = {},
    routed: RoutingChoice | null = null,
  ) {
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
    const confirmation = landedCost(
      'confirmation',
      { currency: offer.currency, itemsMinor: offer.itemsMinor, shippingMinor: offer.shipping.costMinor },
      w.storeCurrency,
      offer.rate,
    );
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
        a.createOrder(ctx, {
          orderNumber: so.supplierOrderNumber,
          items: rest.items.map((i) => ({ variantId: i.supplierVariantId!, quantity: i.quantity })),
          destination: so.destination,
          paymentDue: sent.paymentDue,
          shipping,
          ...reship(so),
        }),
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
    if (!now || now.status !== so.status || now.supplierOrderNumber !== so.supplierOrderNumber)
      throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
  }
}
