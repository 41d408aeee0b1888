import { randomBytes, randomInt } from 'node:crypto';
import type { Caller, EnvState } from './accounts';
import { ApiError } from './errors';
import { type LineChecks, takeLines } from './order-lines';
import type { Records } from './records';
import { fromCents, spoken } from './money';
import { TimerBag } from './timers';
import type { Environment, Order, OrderRequest, OrderStatus } from './types';

const AUTO_SHIP_CARRIER = 'SandboxPost';

const now = () => new Date().toISOString();

export interface OrderRecord {
  order: Order;
  accountId: string;
  environment: Environment;
}

/** What orders need from the rest of the sandbox. */
export interface OrderWorld extends LineChecks {
  records: Records;
  /** Tells the order's account of its new status. */
  notify(record: OrderRecord): void;
  /** Paid orders ship after this long (0: only on command). */
  autoShipAfterMs: number;
  /** The warehouse's shipping price: the base and each further unit, in cents. */
  shipping: { baseMinor: number; perUnitMinor: number };
  /** A reship's create: the claim must be one the sandbox approved for a reship (throws otherwise); it is counted. */
  reship(caller: Caller, claimId: string): void;
}

function orderNotFound(id: string): ApiError {
  return new ApiError(404, 'orderNotFound', `No order ${id}`);
}

function trackingNumber(): string {
  let digits = '';
  for (let i = 0; i < 12; i++) digits += String(randomInt(10));
  return `SBX${digits}`;
}

/**
 * The orders of every account and environment, and how they move: created (stock taken), paid from the balance,
 * cancelled (stock and money given back), processed, shipped, delivered. Replaced whole by a control reset.
 */
export class Orders {
  private readonly byId = new Map<string, OrderRecord>();
  private readonly ofEnv = new Map<EnvState, { byId: Map<string, OrderRecord>; byNumber: Map<string, OrderRecord> }>();
  private readonly timers = new TimerBag();
  private readonly autoShip = new Map<string, NodeJS.Timeout>();

  constructor(private readonly world: OrderWorld) {}

  private scope(env: EnvState) {
    let found = this.ofEnv.get(env);
    if (!found) this.ofEnv.set(env, (found = { byId: new Map(), byNumber: new Map() }));
    return found;
  }

  create(caller: Caller, input: OrderRequest): OrderRecord {
    const scope = this.scope(caller.env);
    const existing = scope.byNumber.get(input.orderNumber);
    if (existing)
      throw new ApiError(409, 'orderNumberExists', `Order number ${input.orderNumber} already exists as ${existing.order.id}`, { orderId: existing.order.id });
    // A reship the sandbox approved costs nothing, and is paid as it is made.
    if (input.reshipOf) this.world.reship(caller, input.reshipOf);
    const free = input.reshipOf ? 0 : 1;
    // Priced in the account's currency, as its product reads and quotes were.
    const currency = caller.account.currency;
    const items = takeLines(this.world, input).map((i) => ({ ...i, unitCostMinor: fromCents(i.unitCostMinor, currency) * free }));
    const itemsMinor = items.reduce((sum, i) => sum + i.unitCostMinor * i.quantity, 0);
    const units = items.reduce((sum, i) => sum + i.quantity, 0);
    const shippingMinor = fromCents(shippingQuote(this.world.shipping, units) + this.world.faults().shippingSurchargeMinor, currency) * free;
    const at = now();
    const order: Order = {
      id: `SBX-O${randomBytes(6).toString('hex').toUpperCase()}`,
      orderNumber: input.orderNumber,
      status: 'created',
      paid: false,
      items,
      costs: { itemsMinor, shippingMinor, totalMinor: itemsMinor + shippingMinor, currency },
      destination: input.destination,
      shipping: null,
      createdAt: at,
      updatedAt: at,
    };
    const record: OrderRecord = { order, accountId: caller.account.id, environment: caller.env.environment };
    scope.byId.set(order.id, record);
    scope.byNumber.set(order.orderNumber, record);
    this.byId.set(order.id, record);
    this.world.records.orderCreated(order.orderNumber);
    if (input.reshipOf) {
      order.paid = true;
      this.transition(record, 'paid');
      this.autoShipLater(record);
    }
    return record;
  }

  get(caller: Caller, id: string): OrderRecord {
    const record = this.scope(caller.env).byId.get(id);
    if (!record) throw orderNotFound(id);
    return record;
  }

  /** Newest first. */
  list(caller: Caller): OrderRecord[] {
    return [...this.scope(caller.env).byId.values()].reverse();
  }

  findByNumber(caller: Caller, orderNumber: string): OrderRecord | undefined {
    return this.scope(caller.env).byNumber.get(orderNumber);
  }

  /** Control-side lookup: any account, any environment. */
  any(id: string): OrderRecord {
    const record = this.byId.get(id);
    if (!record) throw orderNotFound(id);
    return record;
  }

  /** Control-side lookup that answers undefined for an unknown id. */
  byIdAny(id: string): OrderRecord | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<OrderRecord> {
    return this.byId.values();
  }

  pay(caller: Caller, id: string): OrderRecord {
    const record = this.get(caller, id);
    const { order } = record;
    if (order.paid) throw new ApiError(409, 'alreadyPaid', `Order ${id} is already paid`);
    if (order.status === 'cancelled') throw new ApiError(409, 'orderCancelled', `Order ${id} is cancelled`);
    const total = order.costs.totalMinor;
    const balance = caller.env.balanceMinor;
    if (balance < total)
      throw new ApiError(
        402,
        'insufficientBalance',
        `Balance ${spoken(balance, order.costs.currency)} is below the order total ${spoken(total, order.costs.currency)}`,
        { balanceMinor: balance, requiredMinor: total },
      );
    caller.env.balanceMinor -= total;
    order.paid = true;
    this.world.records.payments.push(movement(record, total));
    this.transition(record, 'paid');
    this.autoShipLater(record);
    return record;
  }

  private autoShipLater(record: OrderRecord): void {
    const { order } = record;
    if (this.world.autoShipAfterMs <= 0) return;
    const timer = this.timers.after(this.world.autoShipAfterMs, () => {
      this.autoShip.delete(order.id);
      if (order.status === 'paid' || order.status === 'processing') this.ship(record, AUTO_SHIP_CARRIER, trackingNumber());
    });
    this.autoShip.set(order.id, timer);
  }

  cancel(caller: Caller, id: string): OrderRecord {
    const record = this.get(caller, id);
    const { order } = record;
    if (order.status === 'shipped' || order.status === 'delivered') throw new ApiError(409, 'alreadyShipped', `Order ${id} has already shipped`);
    if (order.status === 'cancelled') return record;
    if (order.paid) {
      caller.env.balanceMinor += order.costs.totalMinor;
      order.paid = false;
      this.world.records.refunds.push(movement(record, order.costs.totalMinor));
    }
    for (const item of order.items) {
      const found = this.world.catalogue.getVariant(item.variantId);
      if (found) found.variant.stock += item.quantity;
    }
    const timer = this.autoShip.get(order.id);
    if (timer) {
      this.timers.cancel(timer);
      this.autoShip.delete(order.id);
    }
    this.transition(record, 'cancelled');
    return record;
  }

  markProcessing(record: OrderRecord): OrderRecord {
    if (record.order.status !== 'paid') throw invalidTransition(record, 'only paid orders can start processing');
    this.transition(record, 'processing');
    return record;
  }

  shipByControl(record: OrderRecord, carrier?: string, tracking?: string): OrderRecord {
    const { status } = record.order;
    if (status !== 'paid' && status !== 'processing') throw invalidTransition(record, 'only paid or processing orders can ship');
    return this.ship(record, carrier ?? AUTO_SHIP_CARRIER, tracking ?? trackingNumber());
  }

  deliver(record: OrderRecord): OrderRecord {
    if (record.order.status !== 'shipped') throw invalidTransition(record, 'only shipped orders can be delivered');
    this.transition(record, 'delivered');
    return record;
  }

  /** Cancels every timer (auto-ship): on reset and on close. */
  stop(): void {
    this.timers.clear();
    this.autoShip.clear();
  }

  private ship(record: OrderRecord, carrier: string, tracking: string): OrderRecord {
    record.order.shipping = { carrier, trackingNumber: tracking, shippedAt: now() };
    this.transition(record, 'shipped');
    return record;
  }

  private transition(record: OrderRecord, status: OrderStatus): void {
    record.order.status = status;
    record.order.updatedAt = now();
    this.world.notify(record);
  }
}

function invalidTransition(record: OrderRecord, rule: string): ApiError {
  return new ApiError(409, 'invalidTransition', `Order ${record.order.id} is ${record.order.status}; ${rule}`);
}

function movement(record: OrderRecord, amountMinor: number) {
  return {
    orderId: record.order.id,
    orderNumber: record.order.orderNumber,
    amountMinor,
    at: now(),
    accountId: record.accountId,
    environment: record.environment,
  };
}

/** The warehouse's one shipping service in US cents (the main one: 4.99 USD for the first unit, 1.00 for each further one). */
export function shippingQuote(shipping: { baseMinor: number; perUnitMinor: number }, units: number): number {
  return shipping.baseMinor + shipping.perUnitMinor * (units - 1);
}
