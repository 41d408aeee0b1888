import { ApiError } from '../platform/errors';
import { failpoint } from '../platform/failpoints';
import type { Logger } from '../platform/logger';
import type { SupplierGateway } from '../connections/gateway';
import { CircuitOpenError } from '../connections/gateway';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierRegistry } from '../suppliers/registry';
import type { OrderService } from '../orders/service';
import type { Actor } from '../identity/permissions';
import type { SupplierOrder } from './entities';
import { Pause, runPreChecks } from './prechecks';
import { Fields, partOf, SupplierOrderRecords, Work } from './records';
import { cleanReviewMessage, REVIEW_REASONS, ReviewReason } from './review-reasons';
import { snapshotChange, snapshotFields } from './snapshots';
import { assertMove, FINAL } from './state-machine';
import { nextStep, Step } from './steps';

const SYSTEM: Actor = { kind: 'system', id: null };

export interface DispatchSettings {
  retryLimit: number;
  retryBaseSeconds: number;
}

/** Supplier answers that pause an order for a person, by error kind. */
export function reasonFor(err: SupplierError): ReviewReason | null {
  switch (err.kind) {
    case 'insufficientBalance':
    case 'variantUnavailable':
    case 'destinationUnsupported':
      return err.kind;
    case 'refused':
    case 'credentialsRejected':
    case 'notSupported':
      return 'supplierRefused';
    default:
      return null;
  }
}

/** The dispatch job: does whatever step the record says is due, again and again, until none is. */
export class DispatchJob {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly gateway: SupplierGateway,
    private readonly registry: SupplierRegistry,
    private readonly orders: OrderService,
    private readonly settings: DispatchSettings,
    private readonly log: Logger,
  ) {}

  async run(supplierOrderId: string): Promise<void> {
    let so = await this.records.load(supplierOrderId);
    for (let round = 0; round < 8; round++) {
      const step = so && nextStep(so);
      if (!so || !step) return;
      const work = await this.records.work(supplierOrderId, so);
      if (!work) return;
      try {
        await this.steps[step](work);
      } catch (err) {
        // Someone else moved the record meanwhile (a retry, a read-back): look again.
        if (!(err instanceof ApiError && err.code === 'concurrentChange')) throw err;
      }
      // One light read says whether anything more is due; the record is read again only then.
      if (!(await this.records.stepDue(supplierOrderId))) return;
      so = await this.records.load(supplierOrderId);
    }
  }

  private readonly steps: Record<Step, (w: Work) => Promise<void>> = {
    send: (w) => this.send(w),
    pay: (w) => this.pay(w),
    capture: (w) => this.capture(w),
    cancel: (w) => this.cancel(w),
  };

  /** Pre-checks, then the number is looked up (a create that timed out after succeeding is found), then created. */
  private async send({ so, conn, ...rest }: Work): Promise<void> {
    try {
      await runPreChecks({ work: { so, conn, ...rest }, registry: this.registry, gateway: this.gateway });
    } catch (err) {
      if (err instanceof Pause) return this.pause(so, err);
      if (err instanceof SupplierError) return this.fail(so, err);
      throw err;
    }
    // Whether payment follows is decided now, from pay now and the automation as it is when the order is sent.
    const sent: Fields = { paymentDue: so.payNow || conn.automation.automaticPayment };
    failpoint('dispatch.beforeCreate');
    let found: SupplierOrderSnapshot | null;
    try {
      found = await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
    } catch (err) {
      if (err instanceof SupplierError) return this.fail(so, err);
      throw err;
    }
    if (found) return this.record(so, found, 'foundAtSupplier', { supplierOrderNumber: so.supplierOrderNumber }, sent);
    let created: SupplierOrderSnapshot;
    try {
      created = await this.gateway.call(conn, (a, ctx) =>
        a.createOrder(ctx, { orderNumber: so.supplierOrderNumber, items: rest.items.map((i) => ({ variantId: i.supplierVariantId!, quantity: i.quantity })), destination: so.destination }),
      );
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      const reason = reasonFor(err);
      // Refused: the number was not used, so a retry may take a new one.
      if (reason) return this.pause(so, new Pause(reason, err.message), { numberKnownAbsent: true });
      if (err.kind === 'orderNumberExists') return; // the next round's lookup finds it
      return this.fail(so, err);
    }
    failpoint('dispatch.afterCreate');
    await this.record(so, created, 'createdAtSupplier', { supplierOrderNumber: so.supplierOrderNumber }, sent);
  }

  /** Reads the supplier's own status first: an order already paid there is recorded, never paid again. */
  private async pay({ so, conn }: Work): Promise<void> {
    const settled: Fields = { payRequested: false };
    try {
      const before = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!));
      if (before.paid) return this.record(so, before, 'alreadyPaidAtSupplier', {}, settled);
      failpoint('dispatch.beforePay');
      const paid = await this.gateway.call(conn, (a, ctx) => a.payOrder(ctx, so.supplierOrderId!));
      failpoint('dispatch.afterPay');
      await this.record(so, paid, 'paid', so.payNow ? { payNow: true } : {}, settled);
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind === 'alreadyPaid') {
        const snap = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!));
        return this.record(so, snap, 'alreadyPaidAtSupplier', {}, settled);
      }
      const reason = reasonFor(err);
      if (reason) return this.pause(so, new Pause(reason, err.message));
      throw err; // a passing error: the order stays submitted, the queue retries the job
    }
  }

  /** Promise to sell: the shopper is charged once the supplier accepted; a failed charge pauses at once. */
  private async capture({ so }: Work): Promise<void> {
    failpoint('dispatch.beforeCapture');
    const ok = await this.orders.captureShopperPayment(so.orderId);
    if (!ok) return this.pause(so, new Pause('customerCaptureFailed', 'The supplier was paid, but charging the shopper failed.'));
    await this.records.apply(so.id, { from: [so.status], fields: { shopperCaptured: true }, actor: SYSTEM, type: 'shopperCharged' });
  }

  /** Withdraws the order at the supplier, asking it first: the supplier may hold an order our record does not know of. */
  private async cancel({ so, conn }: Work): Promise<void> {
    if (FINAL.has(so.status) || so.status === 'shipped') return this.cancelled(so, null);
    try {
      const snap = so.supplierOrderId
        ? await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!))
        : conn.credentialsSealed && conn.enabled
          ? await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber))
          : null;
      if (!snap || snap.status === 'cancelled') return this.cancelled(so, { type: 'cancelled', details: { atSupplier: !!snap }, fields: snap ? { supplierStatus: snap.supplierStatus } : {} });
      if (snap.status === 'shipped' || snap.status === 'delivered') throw new SupplierError('alreadyShipped', 'The supplier already shipped this order.');
      const after = await this.gateway.call(conn, (a, ctx) => a.cancelOrder(ctx, snap.supplierOrderId));
      await this.cancelled(so, { type: 'cancelledAtSupplier', details: { supplierStatus: after.supplierStatus }, fields: snapshotFields(so, after) });
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind === 'notFound') return this.cancelled(so, { type: 'cancelled', details: { atSupplier: false }, fields: {} });
      const withdrawn: Fields = { cancelRequested: false, storeTakesOver: false };
      if (err.kind === 'alreadyShipped') return this.pause(so, new Pause('supplierAlreadyShipped', 'The cancel came after the supplier shipped the order; handle it as a return.'), withdrawn);
      const reason = reasonFor(err);
      // The supplier refuses to withdraw it (for example once paid): a person decides.
      if (reason) return this.pause(so, new Pause(reason, `The supplier refused to cancel: ${err.message}`), withdrawn);
      throw err; // a passing error: the queue retries the job
    }
  }

  /** Ends a cancel: the record cancelled (unless it already ended), the request cleared, and a part the store takes over handed to it. */
  private async cancelled(so: SupplierOrder, move: { type: string; details: Record<string, unknown>; fields: Fields } | null): Promise<void> {
    const toCancelled = !!move && so.status !== 'cancelled';
    if (toCancelled) assertMove(so.status, 'cancelled');
    const status = toCancelled ? 'cancelled' : so.status;
    await this.records.transaction(async (tx) => {
      await this.records.apply(
        so.id,
        {
          from: [so.status],
          to: status,
          fields: { ...(move?.fields ?? {}), cancelRequested: false },
          actor: SYSTEM,
          type: move?.type ?? 'cancelRequestCleared',
          details: move?.details ?? {},
          part: toCancelled ? partOf('cancelled', move!.fields.shipping ?? so.shipping) : undefined,
        },
        tx,
      );
      if (so.storeTakesOver && status === 'cancelled') await this.orders.handPartToStore(tx, so.orderId, so.groupKey);
    });
  }

  /** Records what the supplier says of our order (see snapshots.ts). */
  async record(so: SupplierOrder, snap: SupplierOrderSnapshot, type: string, details: Record<string, unknown> = {}, extra: Fields = {}): Promise<void> {
    await this.records.apply(so.id, snapshotChange(so, snap, SYSTEM, type, details, extra));
  }

  private async pause(so: SupplierOrder, p: Pause, extra: Fields = {}): Promise<void> {
    if (so.status !== 'needsReview') assertMove(so.status, 'needsReview');
    await this.records.apply(so.id, {
      from: [so.status],
      to: 'needsReview',
      fields: { reviewReason: p.reason, reviewMessage: cleanReviewMessage(p.message), retryable: REVIEW_REASONS[p.reason], payRequested: false, ...extra },
      actor: SYSTEM,
      type: 'paused',
      details: { reason: p.reason, ...p.details },
      part: partOf('needsReview', so.shipping),
    });
  }

  /** A passing error: the sweeper retries it after a backoff while retries remain, then it pauses as connectionUnhealthy. */
  private async fail(so: SupplierOrder, err: SupplierError): Promise<void> {
    const used = so.retriesUsed + 1;
    if (used > this.settings.retryLimit || err instanceof CircuitOpenError) {
      return this.pause(so, new Pause('connectionUnhealthy', err instanceof CircuitOpenError ? 'The connection is paused after repeated supplier errors.' : `The supplier did not answer after ${this.settings.retryLimit} retries: ${err.message}`));
    }
    const delay = this.settings.retryBaseSeconds * 2 ** (used - 1);
    await this.records.apply(so.id, {
      from: [so.status],
      to: 'failed',
      fields: { retriesUsed: used, nextRetryAt: new Date(Date.now() + delay * 1000) },
      actor: SYSTEM,
      type: 'failed',
      details: { error: err.kind, message: cleanReviewMessage(err.message), retryInSeconds: delay },
      part: partOf('failed', so.shipping),
    });
  }

  /** A read-back (after a notification, or the safety net): the supplier's view applied as any other answer. */
  async readBack(connectionId: string, supplierOrderId: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const so = await this.records.bySupplierId(connectionId, supplierOrderId);
      if (!so) return false;
      const conn = await this.records.connection(so.connectionId);
      if (!conn || conn.disconnectedAt || !conn.credentialsSealed) return false;
      const snap = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, supplierOrderId));
      try {
        await this.record((await this.records.load(so.id)) ?? so, snap, 'readBack');
        return true;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'concurrentChange')) throw err;
      }
    }
    this.log.warn({ supplierOrderId }, 'read-back kept meeting concurrent changes');
    return false;
  }
}
