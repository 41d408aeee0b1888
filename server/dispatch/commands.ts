import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ApiError, errors } from '../platform/errors';
import type { OrderService } from '../orders';
import type { OrderPart, StoreOrder } from '../orders';
import type { Actor } from '../identity/permissions';
import type { DeliveryAttentionReason } from '../platform/vocabulary/delivery';
import type { DispatchQueue } from './queues';
import type { SupplierOrderRecords } from './records';
import { ImpossibleMoveError } from './state-machine';
import { nextStep } from './steps';
import type { SupplierOrder } from './supplier-order';
import type { DispatchEvent } from './dispatch-event';
import type { SupplierOrderWaiter } from './waiter';

export interface Outcome {
  so: SupplierOrder;
  /** False when the job had not finished within the wait (or the caller asked not to wait): answered 202. */
  settled: boolean;
}

export interface CommandOptions {
  /** `Prefer: respond-async`: answer at once with the record as it is. */
  respondAsync?: boolean;
}

/** What a request says when the table refuses it for the record's status. */
const REFUSED: Record<'retry' | 'payRequested' | 'cancelRequested' | 'rerouteRequested', (so: SupplierOrder) => string> = {
  rerouteRequested: (so) => `Only a paused supplier order (status needsReview) can be rerouted; this one is ${so.status}.`,
  retry: (so) => `A ${so.status} supplier order cannot be retried.`,
  payRequested: (so) => `Only a submitted supplier order (created, not paid) can be paid; this one is ${so.status}.`,
  cancelRequested: (so) => `A ${so.status} supplier order cannot be cancelled.`,
};

/** What a caller asks of a supplier order: each writes its request on the record, asks for the job, and waits (bounded). */
export class DispatchCommands {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly queue: DispatchQueue,
    private readonly waiter: SupplierOrderWaiter,
    /** The orders domain's parts, injected: dispatch reads a part and hands one to the store through it. */
    private readonly parts: Pick<OrderService, 'part' | 'handPartToStore'>,
  ) {}

  private async answer(so: SupplierOrder, opts: CommandOptions): Promise<Outcome> {
    if (nextStep(so)) await this.queue.request(so);
    return opts.respondAsync ? { so, settled: false } : this.waiter.until(so.id, so.storeId);
  }

  /**
   * A caller's request, through the transition table (a move it does not allow is 409 invalidState). A job that
   * moved the record meanwhile does not make the request fail: it is made again on the record as it now is. While a
   * reroute is under way a person's retry, pay or other reroute is 409 rerouteInProgress (the same reroute asked
   * again answers the one under way); a cancel is taken at once and ends the reroute, whose move then yields. The
   * write's guard decides it in the database (./change.ts `Change.guard`).
   */
  private async request(so: SupplierOrder, e: Extract<DispatchEvent, { type: keyof typeof REFUSED }>): Promise<SupplierOrder> {
    for (let attempt = 0; ; attempt++) {
      if (so.status === 'needsReview' && so.rerouteRequest && e.type !== 'cancelRequested') {
        if (e.type === 'rerouteRequested' && e.request.connectionId === so.rerouteRequest.connectionId) return so;
        throw errors.conflict('rerouteInProgress', 'A reroute of this supplier order to a backup supplier is under way; read it again once it ends.');
      }
      if (e.type === 'rerouteRequested' && so.cancelRequested) throw errors.invalidState('A cancel of this supplier order is under way; it is not rerouted.');
      try {
        return await this.records.change(so, e);
      } catch (err) {
        if (err instanceof ImpossibleMoveError) throw errors.invalidState(REFUSED[e.type](so));
        if (!(err instanceof ApiError && err.code === 'concurrentChange') || attempt >= 4) throw err;
        so = await this.records.loadOrFail(so.id, so.storeId);
      }
    }
  }

  /**
   * One supplier order per order part however often it is called; `charge` runs in the transaction that makes the
   * record, so a repeated or concurrent submit of the same part answers the same order and charges nothing.
   */
  async submit(
    order: StoreOrder,
    partKey: string,
    actor: Actor,
    payNow: boolean,
    opts: CommandOptions & { charge?: (tx: EntityManager) => Promise<void> } = {},
  ): Promise<Outcome> {
    const part = await this.supplierPart(order, partKey);
    const existing = await this.records.forPart(order.storeId, order.id, partKey);
    if (existing) return this.answer(existing, opts);
    if (part.fulfilledByStore) throw errors.invalidState('The store fulfils this part itself.');
    const { so } = await this.ensure(order, part, actor, { payNow, trigger: 'submit', charge: opts.charge });
    return this.answer(so, opts);
  }

  /** Makes the part's supplier order (status queued) if it has none; the caller asks for the job. */
  async ensure(order: StoreOrder, part: OrderPart, actor: Actor, o: { payNow: boolean; trigger: string; charge?: (tx: EntityManager) => Promise<void> }) {
    const conn = await this.records.connection(order.storeId, part.connectionId!);
    if (!conn) throw errors.notFound('The order part');
    return this.records.create(
      {
        id: crypto.randomUUID(),
        storeId: order.storeId,
        orderId: order.id,
        partKey: part.partKey,
        connectionId: conn.id,
        supplierKey: conn.supplierKey,
        orderNumber: order.number,
        contractModel: order.contractModel,
        destination: order.destination,
        payNow: o.payNow,
        createdByAccountId: order.createdByAccountId,
        createdByKeyId: actor.kind === 'key' ? actor.id : order.createdByKeyId,
      },
      actor,
      o.trigger,
      o.charge,
    );
  }

  /** Retry: back to queued; with acceptCost the caller's acceptance of the last cost seen is recorded. */
  async retry(so: SupplierOrder, actor: Actor, acceptCost: boolean, opts: CommandOptions = {}): Promise<Outcome> {
    const accepted = acceptCost ? { costMinor: await this.records.lastSeenCost(so.storeId, so.id) } : undefined;
    return this.answer(await this.request(so, { type: 'retry', actor, acceptCost: accepted }), opts);
  }

  async pay(so: SupplierOrder, actor: Actor, opts: CommandOptions = {}): Promise<Outcome> {
    return this.answer(await this.request(so, { type: 'payRequested', actor }), opts);
  }

  /**
   * Asks the job to withdraw the order; one the supplier already shipped ends paused as supplierAlreadyShipped. An
   * order whose items a move took on (routed or rerouted away) is followed to the order that holds them now, which is
   * cancelled instead (at its supplier too, if it was sent there).
   */
  async cancel(so: SupplierOrder, actor: Actor, opts: CommandOptions & { storeTakesOver?: boolean } = {}): Promise<Outcome> {
    let live = so;
    for (let hops = 0; live.status === 'cancelled' && live.reroutedTo && hops < 20; hops++) live = await this.records.loadOrFail(live.reroutedTo, live.storeId);
    return this.answer(await this.request(live, { type: 'cancelRequested', actor, storeTakesOver: !!opts.storeTakesOver }), opts);
  }

  /**
   * A person's reroute of a paused order to its alternates (or the one named), acting for the caller. The job proves
   * first that the supplier holds no live order for it; a pause after the supplier stopped answering (its create's
   * outcome unknown) is refused (409 rerouteNotProven): retry it first.
   */
  async reroute(so: SupplierOrder, actor: Actor, connectionId: string | null, opts: CommandOptions = {}): Promise<Outcome> {
    if (so.status === 'needsReview' && so.reviewReason === 'connectionUnhealthy' && so.retriesUsed > 0 && !so.numberKnownAbsent) {
      throw errors.conflict('rerouteNotProven', 'The supplier stopped answering while this order was being sent, so it may hold it: retry it first.');
    }
    const named = connectionId && so.status === 'needsReview' ? await this.records.connectionsOfPart(so) : null;
    if (named && (connectionId === so.connectionId || !named.includes(connectionId!))) {
      throw new ApiError(422, 'alternateInvalid', "The connection is neither an alternate of this part's items nor their link's own supplier.", [
        { field: 'body/connectionId', message: `connection ${connectionId} holds no variant of these items` },
      ]);
    }
    const request = { by: 'manual' as const, reason: so.reviewReason ?? 'supplierRefused', connectionId, actor: { kind: actor.kind, id: actor.id } };
    return this.answer(await this.request(so, { type: 'rerouteRequested', actor, request }), opts);
  }

  /**
   * A person acknowledges a delivery attention, naming the reason they saw (409 attentionChanged when it is another now,
   * or none): it clears, and that reason is not raised again until its threshold passes anew (./delivery/watch.ts).
   */
  async acknowledge(so: SupplierOrder, actor: Actor, reason: DeliveryAttentionReason): Promise<SupplierOrder> {
    for (let attempt = 0; ; attempt++) {
      const now = so.delivery?.attention?.reason;
      if (now !== reason)
        throw errors.conflict(
          'attentionChanged',
          now ? `The delivery attention is ${now} now, not ${reason}; read the order again.` : 'The order needs no delivery attention now.',
        );
      const conn = await this.records.connection(so.storeId, so.connectionId);
      if (!conn) throw errors.notFound("The supplier order's connection");
      try {
        return await this.records.change(so, { type: 'attentionAcknowledged', actor, reason, watch: conn.automation.deliveryWatch });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'concurrentChange') || attempt >= 4) throw err;
        so = await this.records.loadOrFail(so.id, so.storeId);
      }
    }
  }

  /** The store takes a part over: its supplier order (if any) is cancelled and the store ships the part. */
  async fulfilManually(order: StoreOrder, partKey: string, actor: Actor, opts: CommandOptions = {}) {
    const part = await this.parts.part(order.storeId, order.id, partKey);
    if (!part || !partKey.startsWith('supplier:')) throw errors.notFound('The supplier part');
    if (part.fulfilledByStore) throw errors.invalidState('The store already fulfils this part.');
    const so = await this.records.forPart(order.storeId, order.id, partKey);
    if (so && (so.status === 'shipped' || so.status === 'delivered')) throw errors.invalidState('The supplier already shipped this part.');
    if (so && so.status !== 'cancelled') {
      const out = await this.cancel(so, actor, { ...opts, storeTakesOver: true });
      return { so: out.so, part: await this.parts.part(order.storeId, order.id, partKey), settled: out.settled };
    }
    await this.parts.handPartToStore(order.storeId, order.id, partKey);
    return { so, part: await this.parts.part(order.storeId, order.id, partKey), settled: true };
  }

  private async supplierPart(order: StoreOrder, partKey: string): Promise<OrderPart> {
    if (!partKey.startsWith('supplier:')) throw errors.badRequest('notASupplierPart', "This part holds the store's own items; it has no supplier.");
    const part = await this.parts.part(order.storeId, order.id, partKey);
    if (!part || !part.connectionId) throw errors.notFound('The order part');
    return part;
  }
}
