import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { errors } from '../platform/errors';
import { sqlRows } from '../platform/db';
import { Boss, jobPending } from '../platform/jobs';
import type { Logger } from '../platform/logger';
import { SupplierConnection } from '../connections/entities';
import type { SupplierGateway } from '../connections/gateway';
import { CircuitOpenError } from '../connections/gateway';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import { StoreOrder, StoreOrderItem } from '../orders/entities';
import type { OrderService } from '../orders/service';
import { STORE_GROUP } from '../orders/service';
import { Actor, SupplierOrder } from './entities';
import { cleanReviewMessage, REVIEW_REASONS, ReviewReason } from './review-reasons';
import { assertMove, FINAL, partStatusOf, PROGRESS_RANK, SupplierOrderStatus } from './state-machine';

export const DISPATCH_QUEUE = 'dispatch.supplier-order';
export const RETRY_FAILED_QUEUE = 'dispatch.retry-failed';

export interface DispatchSettings {
  retryLimit: number;
  retryBaseSeconds: number;
  /** How long submit, retry, pay and cancel wait for the job before answering what they have. */
  waitMs: number;
}

/** A pre-check or supplier answer that pauses the order. */
class Pause extends Error {
  constructor(
    readonly reason: ReviewReason,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const SNAPSHOT_STATUS: Record<SupplierOrderSnapshot['status'], SupplierOrderStatus> = {
  created: 'submitted',
  paid: 'confirmed',
  processing: 'processing',
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
};

export const singletonKeyOf = (so: { orderId: string; groupKey: string }) => `supplier-order:${so.orderId}:${so.groupKey}`;

export function supplierOrderNumber(id: string, attempt: number): string {
  return `ss-${id.replace(/-/g, '').slice(0, 20)}-${attempt}`;
}

export class DispatchService {
  constructor(
    private readonly db: DataSource,
    private readonly gateway: SupplierGateway,
    private readonly registry: SupplierRegistry,
    private readonly orders: OrderService,
    private readonly boss: () => Boss,
    private readonly settings: DispatchSettings,
    private readonly log: Logger,
  ) {}

  // ---------------------------------------------------------------- records and history

  async load(id: string, tx: EntityManager = this.db.manager): Promise<SupplierOrder> {
    return tx.getRepository(SupplierOrder).findOneByOrFail({ id });
  }

  async event(tx: EntityManager, soId: string, actor: Actor, type: string, from: SupplierOrderStatus | null, to: SupplierOrderStatus | null, details: Record<string, unknown> = {}): Promise<void> {
    await tx.query(
      'INSERT INTO supplier_order_events (supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [soId, actor.kind, actor.id, type, from, to, JSON.stringify(details)],
    );
  }

  /**
   * The one place a supplier order's status changes: checks the move against the state machine,
   * writes the change only if nobody moved it meanwhile, records the event, and updates the order part.
   */
  private async move(so: SupplierOrder, to: SupplierOrderStatus, actor: Actor, type: string, fields: Partial<SupplierOrder> = {}, details: Record<string, unknown> = {}): Promise<SupplierOrder> {
    if (so.status !== to) assertMove(so.status, to);
    return this.db.transaction(async (tx) => {
      const res = await sqlRows(tx, `UPDATE supplier_orders SET status = $3, updated_at = now() WHERE id = $1 AND status = $2 RETURNING id`, [so.id, so.status, to]);
      if (!res.length) throw errors.conflict('concurrentChange', 'The supplier order changed meanwhile; read it again.');
      if (Object.keys(fields).length) await tx.getRepository(SupplierOrder).update({ id: so.id }, fields);
      await this.event(tx, so.id, actor, type, so.status, to, details);
      const updated = await this.load(so.id, tx);
      await this.syncPart(tx, updated);
      return updated;
    });
  }

  private async syncPart(tx: EntityManager, so: SupplierOrder): Promise<void> {
    const [group] = await sqlRows<{ fulfilled_by_store: boolean }>(tx, 'SELECT fulfilled_by_store FROM fulfilment_groups WHERE order_id = $1 AND group_key = $2', [so.orderId, so.groupKey]);
    if (group && !group.fulfilled_by_store) {
      const shipment = so.shipping ? { carrier: so.shipping.carrier, trackingNumber: so.shipping.trackingNumber, shippedAt: so.shipping.shippedAt, deliveredAt: so.status === 'delivered' ? new Date().toISOString() : null } : null;
      await this.orders.setPart(tx, so.orderId, so.groupKey, { status: partStatusOf(so.status), shipment });
    } else {
      await this.orders.recompute(tx, so.orderId);
    }
  }

  ofOrders(orderIds: string[]): Promise<SupplierOrder[]> {
    return this.db.getRepository(SupplierOrder).find({ where: { orderId: In(orderIds) }, order: { createdAt: 'ASC' } });
  }

  // ---------------------------------------------------------------- creating and asking for work

  /** Exactly one supplier order per order part (unique index), written before any call to the supplier. */
  async ensure(order: StoreOrder, groupKey: string, actor: Actor, opts: { payNow?: boolean; trigger: string }): Promise<SupplierOrder> {
    if (!groupKey.startsWith('supplier:')) throw errors.badRequest('notASupplierPart', 'This part holds the store\'s own items; it has no supplier.');
    const group = await this.orders.group(order.id, groupKey);
    if (!group || !group.connectionId) throw errors.notFound('The order part');
    const existing = await this.db.getRepository(SupplierOrder).findOneBy({ orderId: order.id, groupKey });
    if (existing) return existing;
    if (group.fulfilledByStore) throw errors.invalidState('The store fulfils this part itself.');
    const conn = await this.db.getRepository(SupplierConnection).findOneByOrFail({ id: group.connectionId });
    const id = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      const inserted = await sqlRows(
        tx,
        `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                      payment_status, pay_now, destination, created_by_account_id, created_by_key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, 'unpaid', $10, $11, $12, $13)
         ON CONFLICT (order_id, group_key) DO NOTHING RETURNING id`,
        [id, order.storeId, order.id, groupKey, conn.id, conn.supplierKey, order.number, order.contractModel, supplierOrderNumber(id, 1), !!opts.payNow, JSON.stringify(order.destination), order.createdByAccountId, actor.kind === 'key' ? actor.id : order.createdByKeyId],
      );
      if (!inserted.length) return tx.getRepository(SupplierOrder).findOneByOrFail({ orderId: order.id, groupKey });
      await this.event(tx, id, actor, 'created', null, 'queued', { trigger: opts.trigger, ...(opts.payNow ? { payNow: true } : {}) });
      const so = await this.load(id, tx);
      await this.syncPart(tx, so);
      return so;
    });
  }

  /**
   * Puts the dispatch job on its queue. The queue admits one queued-or-active job per order part, so a
   * second send is refused while one waits or runs: then we wait for it and try again, so that work asked
   * for after the running job looked (a pay, a cancel) is never left without a job.
   */
  async requestWork(so: SupplierOrder, until: (s: SupplierOrder) => boolean): Promise<void> {
    const deadline = Date.now() + this.settings.waitMs;
    for (;;) {
      const id = await this.boss().send(DISPATCH_QUEUE, { supplierOrderId: so.id }, { singletonKey: singletonKeyOf(so) });
      if (id) return;
      if (until(await this.load(so.id)) || Date.now() > deadline) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits (bounded) until the job has done what was asked and no job is left for the part; answers the record as it then is. */
  async settle(id: string, done: (s: SupplierOrder) => boolean): Promise<{ so: SupplierOrder; settled: boolean }> {
    const deadline = Date.now() + this.settings.waitMs;
    for (;;) {
      const so = await this.load(id);
      // Read again once no job is left: the job may have finished between the first read and the check.
      if (done(so) && !(await jobPending(this.db, DISPATCH_QUEUE, singletonKeyOf(so)))) return { so: await this.load(id), settled: true };
      if (Date.now() > deadline) return { so, settled: false };
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private static sent = (s: SupplierOrder) => s.status !== 'queued';
  private static paid = (s: SupplierOrder) => !s.payRequested;
  private static cancelled = (s: SupplierOrder) => !s.cancelRequested;

  /** Submit: one supplier order per part however often it is called; answers it once the job has acted. */
  async submit(order: StoreOrder, groupKey: string, actor: Actor, payNow: boolean) {
    const so = await this.ensure(order, groupKey, actor, { payNow, trigger: 'submit' });
    if (so.status === 'queued') await this.requestWork(so, DispatchService.sent);
    return this.settle(so.id, DispatchService.sent);
  }

  /** Retry: back to queued; with acceptCost the caller's acceptance of the new cost is recorded. */
  async retry(so: SupplierOrder, actor: Actor, acceptCost: boolean) {
    if (!['queued', 'needsReview', 'failed'].includes(so.status)) throw errors.invalidState(`A ${so.status} supplier order cannot be retried.`);
    const fields: Partial<SupplierOrder> = { reviewReason: null, reviewMessage: null, retryable: null, nextRetryAt: null };
    const details: Record<string, unknown> = {};
    if (acceptCost) {
      const seen = await this.lastSeenCost(so.id);
      fields.acceptedCostMinor = seen;
      details.acceptCost = true;
      details.acceptedCostMinor = seen;
    }
    // A new attempt, with a new number, only once the previous number is known not to exist at the supplier.
    if (so.numberKnownAbsent) {
      fields.attempt = so.attempt + 1;
      fields.supplierOrderNumber = supplierOrderNumber(so.id, so.attempt + 1);
      fields.numberKnownAbsent = false;
      details.newAttempt = so.attempt + 1;
    }
    if (so.status === 'failed' || so.status === 'needsReview') fields.retriesUsed = 0;
    const moved = so.status === 'queued' ? so : await this.move(so, 'queued', actor, 'retry', fields, details);
    if (so.status === 'queued') {
      await this.db.transaction(async (tx) => {
        await tx.getRepository(SupplierOrder).update({ id: so.id }, fields);
        await this.event(tx, so.id, actor, 'retry', 'queued', 'queued', details);
      });
    }
    await this.requestWork(moved, DispatchService.sent);
    return this.settle(so.id, DispatchService.sent);
  }

  async pay(so: SupplierOrder, actor: Actor) {
    if (so.status !== 'submitted') throw errors.invalidState(`Only a submitted supplier order (created, not paid) can be paid; this one is ${so.status}.`);
    await this.db.transaction(async (tx) => {
      await tx.getRepository(SupplierOrder).update({ id: so.id }, { payRequested: true });
      await this.event(tx, so.id, actor, 'payRequested', so.status, so.status);
    });
    await this.requestWork(so, DispatchService.paid);
    return this.settle(so.id, DispatchService.paid);
  }

  async cancel(so: SupplierOrder, actor: Actor, opts: { storeTakesOver?: boolean } = {}) {
    if (FINAL.has(so.status) || so.status === 'shipped') throw errors.invalidState(`A ${so.status} supplier order cannot be cancelled.`);
    await this.db.transaction(async (tx) => {
      await tx.getRepository(SupplierOrder).update({ id: so.id }, { cancelRequested: true, ...(opts.storeTakesOver ? { storeTakesOver: true } : {}) });
      await this.event(tx, so.id, actor, opts.storeTakesOver ? 'fulfilManuallyRequested' : 'cancelRequested', so.status, so.status);
    });
    await this.requestWork(so, DispatchService.cancelled);
    return this.settle(so.id, DispatchService.cancelled);
  }

  /** The store takes a part over: its supplier order (if any) is cancelled and the store ships the part. */
  async fulfilManually(order: StoreOrder, groupKey: string, actor: Actor) {
    const group = await this.orders.group(order.id, groupKey);
    if (!group || groupKey === STORE_GROUP) throw errors.notFound('The supplier part');
    if (group.fulfilledByStore) throw errors.invalidState('The store already fulfils this part.');
    const so = await this.db.getRepository(SupplierOrder).findOneBy({ orderId: order.id, groupKey });
    if (so && (so.status === 'shipped' || so.status === 'delivered')) throw errors.invalidState('The supplier already shipped this part.');
    let result: SupplierOrder | null = so;
    if (so && so.status !== 'cancelled') {
      const out = await this.cancel(so, actor, { storeTakesOver: true });
      result = out.so;
      if (out.so.status !== 'cancelled') return { so: result, group: await this.orders.group(order.id, groupKey), settled: out.settled };
    }
    await this.db.transaction((tx) => this.orders.setPart(tx, order.id, groupKey, { fulfilledByStore: true, status: order.confirmedAt ? 'processing' : 'pending' }));
    return { so: result, group: await this.orders.group(order.id, groupKey), settled: true };
  }

  /** With an automatic level, each supplier part is sent once, when the store order is confirmed. */
  async afterConfirmation(order: StoreOrder, actor: Actor): Promise<void> {
    for (const group of await this.orders.groups([order.id])) {
      if (!group.connectionId || group.fulfilledByStore) continue;
      const conn = await this.db.getRepository(SupplierConnection).findOneBy({ id: group.connectionId });
      if (!conn || conn.automation.level !== 'automatic') continue;
      if (order.contractModel === 'promiseToSell') continue; // sent on authorisation instead
      const so = await this.ensure(order, group.groupKey, actor, { trigger: 'confirmation' });
      if (so.status === 'queued') await this.requestWork(so, DispatchService.sent);
    }
  }

  /** Promise-to-sell: sending starts once the shopper's payment is authorised. */
  async afterAuthorisation(order: StoreOrder, actor: Actor): Promise<void> {
    if (order.contractModel !== 'promiseToSell') return;
    for (const group of await this.orders.groups([order.id])) {
      if (!group.connectionId || group.fulfilledByStore) continue;
      const conn = await this.db.getRepository(SupplierConnection).findOneBy({ id: group.connectionId });
      if (!conn || conn.automation.level === 'off') continue;
      const so = await this.ensure(order, group.groupKey, actor, { trigger: 'authorisation' });
      if (so.status === 'queued') await this.requestWork(so, DispatchService.sent);
    }
  }

  /** The background retry of `failed` orders whose backoff has passed (one, or every one due). */
  async retryFailed(onlyId?: string): Promise<number> {
    const due = onlyId
      ? await this.db.query(`SELECT id FROM supplier_orders WHERE id = $1 AND status = 'failed' AND next_retry_at <= now() + interval '1 second'`, [onlyId])
      : await this.db.query(`SELECT id FROM supplier_orders WHERE status = 'failed' AND next_retry_at <= now() ORDER BY next_retry_at LIMIT 500`);
    for (const { id } of due as Array<{ id: string }>) {
      const so = await this.load(id);
      if (so.status !== 'failed') continue;
      const moved = await this.move(so, 'queued', { kind: 'system', id: null }, 'automaticRetry', { nextRetryAt: null }, { retriesUsed: so.retriesUsed });
      await this.boss().send(DISPATCH_QUEUE, { supplierOrderId: moved.id }, { singletonKey: singletonKeyOf(moved) });
    }
    return due.length;
  }

  // ---------------------------------------------------------------- the dispatch job

  /** Does whatever the record asks for, until nothing is left: cancel, send, pay. */
  async work(supplierOrderId: string): Promise<void> {
    for (let round = 0; round < 6; round++) {
      const so = await this.db.getRepository(SupplierOrder).findOneBy({ id: supplierOrderId });
      if (!so) return;
      if (so.cancelRequested) {
        await this.doCancel(so);
        continue;
      }
      if (so.status === 'queued') {
        await this.doSend(so);
        continue;
      }
      if (so.status === 'submitted' && so.payRequested) {
        await this.doPay(so, await this.connectionOf(so));
        continue;
      }
      if (so.payRequested && so.status !== 'submitted') await this.db.getRepository(SupplierOrder).update({ id: so.id }, { payRequested: false });
      return;
    }
  }

  private async connectionOf(so: SupplierOrder): Promise<SupplierConnection> {
    return this.db.getRepository(SupplierConnection).findOneByOrFail({ id: so.connectionId });
  }

  private async pause(so: SupplierOrder, p: Pause): Promise<SupplierOrder> {
    const message = cleanReviewMessage(p.message);
    return this.move(so, 'needsReview', { kind: 'system', id: null }, 'paused', { reviewReason: p.reason, reviewMessage: message, retryable: REVIEW_REASONS[p.reason], payRequested: false }, { reason: p.reason, ...p.details });
  }

  /** A passing error: retried in the background while retries remain, then paused as connectionUnhealthy. */
  private async fail(so: SupplierOrder, err: SupplierError): Promise<SupplierOrder> {
    const used = so.retriesUsed + 1;
    if (used > this.settings.retryLimit || err instanceof CircuitOpenError) {
      return this.pause(so, new Pause('connectionUnhealthy', err instanceof CircuitOpenError ? 'The connection is paused after repeated supplier errors.' : `The supplier did not answer after ${this.settings.retryLimit} retries: ${err.message}`));
    }
    const delay = this.settings.retryBaseSeconds * 2 ** (used - 1);
    const failed = await this.move(so, 'failed', { kind: 'system', id: null }, 'failed', { retriesUsed: used, nextRetryAt: new Date(Date.now() + delay * 1000) }, { error: err.kind, message: cleanReviewMessage(err.message), retryInSeconds: delay });
    // A delayed job brings it back when the backoff has passed; the minutely sweep catches any job lost on the way.
    await this.boss().send(RETRY_FAILED_QUEUE, { supplierOrderId: so.id }, { startAfter: delay, singletonKey: `${so.id}:${used}` });
    return failed;
  }

  private items(so: SupplierOrder): Promise<StoreOrderItem[]> {
    return this.db.getRepository(StoreOrderItem).find({ where: { orderId: so.orderId, groupKey: so.groupKey }, order: { position: 'ASC' } });
  }

  /** The last cost the pre-checks saw, offered for acceptance by retry with acceptCost. */
  private async lastSeenCost(soId: string): Promise<number | null> {
    const rows = await this.db.query(
      `SELECT details->>'currentCostMinor' AS c FROM supplier_order_events WHERE supplier_order_id = $1 AND details ? 'currentCostMinor' ORDER BY id DESC LIMIT 1`,
      [soId],
    );
    return rows[0]?.c != null ? Number(rows[0].c) : null;
  }

  /**
   * The pre-checks, in this order (docs/decisions.md lists them): connection present and on, test mode,
   * circuit, excluded country, shopper's payment, variants available, cost unchanged, cost within the limit.
   */
  private async preChecks(so: SupplierOrder, conn: SupplierConnection, order: StoreOrder, items: StoreOrderItem[]): Promise<void> {
    const adapter = this.registry.find(conn.supplierKey);
    if (!adapter || this.registry.isSwitchedOff(conn.supplierKey)) throw new Pause('connectionMissing', `The supplier ${conn.supplierKey} is switched off by the operator of this service.`);
    if (conn.disconnectedAt || !conn.credentialsSealed) throw new Pause('connectionMissing', 'The connection was removed.');
    if (!conn.enabled) throw new Pause('connectionMissing', 'The connection is switched off.');
    if (conn.mode === 'test' && !adapter.entry.capabilities.hasSandbox) throw new Pause('testMode', `${adapter.entry.name} has no test environment; no order was placed while the connection is in test mode.`);
    if (conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now()) throw new Pause('connectionUnhealthy', 'The connection is paused after repeated supplier errors.');
    const country = so.destination.country.toUpperCase();
    if (conn.automation.excludedCountries.includes(country)) throw new Pause('destinationUnsupported', `The store excluded ${country} for this supplier.`);

    const willPay = so.payNow || conn.automation.automaticPayment;
    if (order.contractModel === 'promiseToSell') {
      if (order.paymentStatus !== 'authorised' && order.paymentStatus !== 'paid') throw new Pause('customerPaymentPending', 'Promise to sell: the shopper\'s payment is not authorised yet.');
    } else if (willPay && !so.payNow) {
      if (order.paymentMethod === 'online') {
        if (order.paymentStatus === 'authorised') throw new Pause('customerPaymentNotSettled', 'The shopper\'s payment is authorised but not settled yet.');
        if (order.paymentStatus !== 'paid') throw new Pause('customerPaymentPending', 'The shopper has not paid online yet.');
      } else if (!conn.automation.allowUnpaidOrders) {
        throw new Pause('customerPaymentPending', 'The order has no online payment and the connection does not allow unpaid orders.');
      }
    }

    // Variants, stock and cost as the supplier has them now.
    const productIds = new Map<string, string>();
    for (const item of items) {
      const [row] = await this.db.query('SELECT l.supplier_product_id FROM product_link_variants lv JOIN product_links l ON l.id = lv.link_id WHERE lv.store_variant_id = $1', [item.variantId]);
      if (!row) throw new Pause('variantUnavailable', `The item ${item.sku} is no longer linked to a supplier variant.`);
      productIds.set(item.id, row.supplier_product_id);
    }
    let currentItemsCost = 0;
    let recordedItemsCost = 0;
    const products = new Map<string, Awaited<ReturnType<typeof adapter.getProduct>>>();
    for (const item of items) {
      const pid = productIds.get(item.id)!;
      if (!products.has(pid)) {
        try {
          products.set(pid, await this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, pid)));
        } catch (err) {
          if (err instanceof SupplierError && err.kind === 'notFound') throw new Pause('variantUnavailable', `The supplier no longer offers product ${pid}.`);
          throw err;
        }
      }
      const variant = products.get(pid)!.variants.find((v) => v.id === item.supplierVariantId);
      if (!variant || !variant.available) throw new Pause('variantUnavailable', `The supplier no longer offers variant ${item.supplierVariantId} (${item.sku}).`);
      if (variant.stock < item.quantity) throw new Pause('variantUnavailable', `The supplier has ${variant.stock} of variant ${item.supplierVariantId} (${item.sku}); the order needs ${item.quantity}.`);
      if (!products.get(pid)!.shipsTo.includes(country)) throw new Pause('destinationUnsupported', `The supplier does not deliver product ${pid} to ${country}.`);
      currentItemsCost += variant.cost.amountMinor * item.quantity;
      recordedItemsCost += (item.linkCostMinor ?? variant.cost.amountMinor) * item.quantity;
    }
    const accepted = so.acceptedCostMinor !== null && so.acceptedCostMinor === currentItemsCost;
    if (currentItemsCost !== recordedItemsCost && !accepted) {
      throw new Pause('costChanged', `The supplier's cost moved from ${recordedItemsCost} to ${currentItemsCost} (minor units) since import.`, { recordedCostMinor: recordedItemsCost, currentCostMinor: currentItemsCost });
    }
    const limit = conn.automation.costLimit;
    if (limit && currentItemsCost > limit.amountMinor && !accepted) {
      throw new Pause('costAboveLimit', `The items cost ${currentItemsCost} (minor units), above the store's limit of ${limit.amountMinor} ${limit.currency}.`, { currentCostMinor: currentItemsCost, limitMinor: limit.amountMinor });
    }
  }

  /** Records what the supplier says of our order: ids, status (never backwards), costs, payment, shipping. */
  private async record(so: SupplierOrder, snap: SupplierOrderSnapshot, actor: Actor, type: string, details: Record<string, unknown> = {}): Promise<SupplierOrder> {
    const fields: Partial<SupplierOrder> = {
      supplierOrderId: snap.supplierOrderId,
      supplierStatus: snap.supplierStatus,
      costs: snap.costs,
      shipping: snap.shipping,
      paymentStatus: snap.paid ? 'paid' : snap.status === 'cancelled' && so.paymentStatus === 'paid' ? 'refunded' : so.paymentStatus,
      numberKnownAbsent: false,
    };
    const target = SNAPSHOT_STATUS[snap.status];
    const advance = so.status === 'queued' || (PROGRESS_RANK[target] > PROGRESS_RANK[so.status] && !['needsReview', 'failed'].includes(so.status));
    if (advance && target !== so.status) return this.move(so, target, actor, type, fields, { supplierStatus: snap.supplierStatus, ...details });
    await this.db.transaction(async (tx) => {
      await tx.getRepository(SupplierOrder).update({ id: so.id }, fields);
      await this.event(tx, so.id, actor, type, so.status, so.status, { supplierStatus: snap.supplierStatus, ...details });
      await this.syncPart(tx, await this.load(so.id, tx));
    });
    return this.load(so.id);
  }

  private async doSend(so: SupplierOrder): Promise<void> {
    const system: Actor = { kind: 'system', id: null };
    const conn = await this.connectionOf(so);
    const order = await this.db.getRepository(StoreOrder).findOneByOrFail({ id: so.orderId });
    const items = await this.items(so);
    try {
      await this.preChecks(so, conn, order, items);
    } catch (err) {
      if (err instanceof Pause) return void (await this.pause(so, err));
      if (err instanceof SupplierError) return void (await this.fail(so, err));
      throw err;
    }

    // Look the number up first, so a create that timed out after succeeding is found, not repeated.
    let snap: SupplierOrderSnapshot | null;
    try {
      snap = await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
    } catch (err) {
      if (err instanceof SupplierError) return void (await this.fail(so, err));
      throw err;
    }
    let current = so;
    if (snap) {
      current = await this.record(so, snap, system, 'foundAtSupplier', { supplierOrderNumber: so.supplierOrderNumber });
    } else {
      await this.db.getRepository(SupplierOrder).update({ id: so.id }, { numberKnownAbsent: true });
      try {
        const created = await this.gateway.call(conn, (a, ctx) =>
          a.createOrder(ctx, { orderNumber: so.supplierOrderNumber, items: items.map((i) => ({ variantId: i.supplierVariantId!, quantity: i.quantity })), destination: so.destination }),
        );
        current = await this.record({ ...so, numberKnownAbsent: true }, created, system, 'createdAtSupplier', { supplierOrderNumber: so.supplierOrderNumber });
      } catch (err) {
        if (!(err instanceof SupplierError)) throw err;
        // The create may have happened although no answer came: the number is no longer known to be absent.
        if (err.isOutage) await this.db.getRepository(SupplierOrder).update({ id: so.id }, { numberKnownAbsent: false });
        const fresh = await this.load(so.id);
        const reason = this.reasonFor(err);
        if (reason) return void (await this.pause(fresh, new Pause(reason, err.message)));
        if (err.kind === 'orderNumberExists') return; // found on the next round
        return void (await this.fail(fresh, err));
      }
    }
    if (current.status === 'submitted' && (current.payNow || current.payRequested || conn.automation.automaticPayment)) await this.doPay(current, conn);
    else if (current.status === 'confirmed' && current.contractModel === 'promiseToSell') await this.capture(current);
  }

  private reasonFor(err: SupplierError): ReviewReason | null {
    switch (err.kind) {
      case 'insufficientBalance':
        return 'insufficientBalance';
      case 'variantUnavailable':
        return 'variantUnavailable';
      case 'destinationUnsupported':
        return 'destinationUnsupported';
      case 'refused':
      case 'credentialsRejected':
      case 'notSupported':
        return 'supplierRefused';
      default:
        return null;
    }
  }

  /** Pays from the balance after reading the supplier's own status: an order already paid there is recorded, never paid again. */
  private async doPay(so: SupplierOrder, conn: SupplierConnection): Promise<void> {
    const system: Actor = { kind: 'system', id: null };
    try {
      const before = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!));
      let current: SupplierOrder;
      if (before.paid) {
        current = await this.record(so, before, system, 'alreadyPaidAtSupplier');
      } else {
        const paid = await this.gateway.call(conn, (a, ctx) => a.payOrder(ctx, so.supplierOrderId!));
        current = await this.record(so, paid, system, 'paid', so.payNow ? { payNow: true } : {});
      }
      await this.db.getRepository(SupplierOrder).update({ id: so.id }, { payRequested: false });
      current = await this.load(so.id);
      if (current.contractModel === 'promiseToSell' && current.status === 'confirmed') await this.capture(current);
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      const fresh = await this.load(so.id);
      if (err.kind === 'alreadyPaid') {
        const snap = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!));
        await this.record(fresh, snap, system, 'alreadyPaidAtSupplier');
        await this.db.getRepository(SupplierOrder).update({ id: so.id }, { payRequested: false });
        return;
      }
      const reason = this.reasonFor(err);
      if (reason) return void (await this.pause(fresh, new Pause(reason, err.message)));
      // A passing error while paying: the order stays submitted and the job is retried by the queue.
      throw err;
    }
  }

  /** Promise to sell: the shopper is charged once the supplier accepted; a failed charge pauses at once. */
  private async capture(so: SupplierOrder): Promise<void> {
    const ok = await this.orders.captureShopperPayment(so.orderId);
    if (!ok) await this.pause(so, new Pause('customerCaptureFailed', 'The supplier was paid, but charging the shopper failed.'));
  }

  private async doCancel(so: SupplierOrder): Promise<void> {
    const system: Actor = { kind: 'system', id: null };
    const conn = await this.connectionOf(so);
    const finish = async () => {
      await this.db.getRepository(SupplierOrder).update({ id: so.id }, { cancelRequested: false });
      const fresh = await this.load(so.id);
      if (fresh.storeTakesOver && fresh.status === 'cancelled') {
        const [order] = await this.db.query('SELECT confirmed_at FROM store_orders WHERE id = $1', [so.orderId]);
        await this.db.transaction((tx) => this.orders.setPart(tx, so.orderId, so.groupKey, { fulfilledByStore: true, status: order.confirmed_at ? 'processing' : 'pending', shipment: null }));
      }
    };
    if (FINAL.has(so.status) || so.status === 'shipped') return finish();
    try {
      // Whatever our record says, the supplier may hold the order (a create that timed out): ask it first.
      const snap = so.supplierOrderId
        ? await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!))
        : conn.credentialsSealed && conn.enabled
          ? await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber))
          : null;
      if (!snap || snap.status === 'cancelled') {
        await this.move(so, 'cancelled', system, 'cancelled', snap ? { supplierStatus: snap.supplierStatus } : {}, { atSupplier: !!snap });
        return finish();
      }
      if (snap.status === 'shipped' || snap.status === 'delivered') throw new SupplierError('alreadyShipped', 'The supplier already shipped this order.');
      const cancelled = await this.gateway.call(conn, (a, ctx) => a.cancelOrder(ctx, snap.supplierOrderId));
      await this.record({ ...so, supplierOrderId: snap.supplierOrderId }, cancelled, system, 'cancelledAtSupplier');
      if ((await this.load(so.id)).status !== 'cancelled') await this.move(await this.load(so.id), 'cancelled', system, 'cancelled');
      return finish();
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind === 'alreadyShipped') {
        await this.db.getRepository(SupplierOrder).update({ id: so.id }, { cancelRequested: false, storeTakesOver: false });
        const fresh = await this.load(so.id);
        if (fresh.status !== 'needsReview') await this.pause(fresh, new Pause('supplierAlreadyShipped', 'The cancel came after the supplier shipped the order; handle it as a return.'));
        return;
      }
      if (err.kind === 'notFound') {
        await this.move(so, 'cancelled', system, 'cancelled', {}, { atSupplier: false });
        return finish();
      }
      const reason = this.reasonFor(err);
      if (reason) {
        // The supplier refuses to withdraw it (for example once paid): a person decides.
        await this.db.getRepository(SupplierOrder).update({ id: so.id }, { cancelRequested: false, storeTakesOver: false });
        await this.pause(await this.load(so.id), new Pause(reason, `The supplier refused to cancel: ${err.message}`));
        return;
      }
      throw err; // a passing error: the queue retries the job
    }
  }

  /** A notification's read-back: reads the order from the supplier and applies it. */
  async readBack(connectionId: string, supplierOrderId: string): Promise<boolean> {
    const so = await this.db.getRepository(SupplierOrder).findOneBy({ connectionId, supplierOrderId });
    if (!so) return false;
    const conn = await this.connectionOf(so);
    if (conn.disconnectedAt || !conn.credentialsSealed) return false;
    const snap = await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, supplierOrderId));
    await this.record(so, snap, { kind: 'system', id: null }, 'readBack');
    return true;
  }
}
