import { randomBytes, randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import { Catalogue } from './catalogue';
import { ApiError } from './errors';
import type { Notifier } from './notifier';
import { TimerBag } from './timers';
import type { Destination, Environment, Faults, Order, OrderItem, OrderStatus, Product } from './types';

/** The sandbox sells and keeps balances in US dollars; its messages say amounts as a person reads them. */
const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;

export const DEFAULT_BALANCE_MINOR = 100_000;
export const CODE_TTL_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;
export const AUTO_SHIP_CARRIER = 'SandboxPost';

/** Always present so a sandbox started without the control API is still usable by hand. */
export const DEMO_ACCOUNT = {
  id: 'acct_demo',
  email: 'demo@sandbox-supplier.test',
  liveKey: 'sbx_live_demo',
  testKey: 'sbx_test_demo',
} as const;

export interface EnvState {
  environment: Environment;
  balanceMinor: number;
  webhookUrl: string | null;
  signingSecret: string | null;
  orders: Map<string, OrderRecord>;
  ordersByNumber: Map<string, OrderRecord>;
}

export interface Account {
  id: string;
  email: string;
  liveKey: string;
  testKey: string;
  envs: Record<Environment, EnvState>;
}

export interface OrderRecord {
  order: Order;
  accountId: string;
  environment: Environment;
}

export interface Caller {
  account: Account;
  env: EnvState;
}

export interface MoneyMovement {
  orderId: string;
  orderNumber: string;
  amountMinor: number;
  at: string;
  accountId: string;
  environment: Environment;
}

interface AuthCode {
  accountId: string;
  clientId: string;
  redirectUri: string;
  expiresAtMs: number;
  used: boolean;
}

interface AccessToken {
  accountId: string;
  clientId: string;
  expiresAtMs: number;
}

export interface StateOptions {
  seed: number;
  productCount: number;
  autoShipAfterMs: number;
}

/** The body of POST /v1/orders, checked. */
export interface OrderRequest {
  orderNumber: string;
  items: Array<{ variantId: string; quantity: number }>;
  destination: Destination;
}

export function noFaults(): Faults {
  return { latencyMs: 0, failNext: 0, timeoutAfterCreateNext: 0, refuseNext: null, rejectKeys: false, unavailableAccounts: [], silentAccounts: [], accountLatencyMs: {} };
}

function token(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

function now(): string {
  return new Date().toISOString();
}

function newEnv(environment: Environment, balanceMinor: number): EnvState {
  return { environment, balanceMinor, webhookUrl: null, signingSecret: null, orders: new Map(), ordersByNumber: new Map() };
}

function orderNotFound(id: string): ApiError {
  return new ApiError(404, 'orderNotFound', `No order ${id}`);
}

/** Everything the sandbox remembers. Mutations are synchronous, so concurrent requests cannot interleave a check and its write. */
export class SandboxState {
  catalogue: Catalogue;
  faults: Faults = noFaults();
  readonly accounts = new Map<string, Account>();
  readonly oauthClientIds: string[] = [];
  private readonly keys = new Map<string, { accountId: string; environment: Environment }>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly authCodes = new Map<string, AuthCode>();
  private orders = new Map<string, OrderRecord>();
  private payments: MoneyMovement[] = [];
  private refunds: MoneyMovement[] = [];
  private createAttempts = 0;
  /** Per account: calls being answered now, the most at once, and when the last calls arrived (for limit checks). */
  private callLoad = new Map<string, { now: number; max: number; arrivals: number[] }>();
  private createdByNumber = new Map<string, number>();
  private unservedCountries = new Set<string>();
  private readonly orderTimers = new TimerBag();
  private readonly autoShipTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly options: StateOptions,
    private readonly notifier: Notifier,
    private readonly log: Logger,
  ) {
    this.catalogue = new Catalogue(options.seed, options.productCount);
    this.createAccount(DEFAULT_BALANCE_MINOR, DEFAULT_BALANCE_MINOR, undefined, DEMO_ACCOUNT);
  }

  // ---- accounts & auth ----

  createAccount(
    balanceMinor: number,
    testBalanceMinor: number,
    email?: string,
    fixed?: { id: string; email: string; liveKey: string; testKey: string },
  ): Account {
    if (email !== undefined && this.findAccount(email)) throw new ApiError(409, 'emailInUse', `An account already uses ${email}`);
    const id = fixed?.id ?? token('acct_', 8);
    const account: Account = {
      id,
      email: email ?? fixed?.email ?? `${id}@sandbox-supplier.test`,
      liveKey: fixed?.liveKey ?? token('sbx_live_', 16),
      testKey: fixed?.testKey ?? token('sbx_test_', 16),
      envs: { live: newEnv('live', balanceMinor), test: newEnv('test', testBalanceMinor) },
    };
    this.accounts.set(id, account);
    this.keys.set(account.liveKey, { accountId: id, environment: 'live' });
    this.keys.set(account.testKey, { accountId: id, environment: 'test' });
    return account;
  }

  findAccount(idOrEmail: string): Account | undefined {
    const needle = idOrEmail.trim();
    const byId = this.accounts.get(needle);
    if (byId) return byId;
    const lower = needle.toLowerCase();
    for (const account of this.accounts.values()) if (account.email.toLowerCase() === lower) return account;
    return undefined;
  }

  authenticate(bearer: string): Caller | null {
    const key = this.keys.get(bearer);
    if (key) {
      const account = this.accounts.get(key.accountId);
      return account ? { account, env: account.envs[key.environment] } : null;
    }
    const access = this.accessTokens.get(bearer);
    if (access && access.expiresAtMs > Date.now()) {
      const account = this.accounts.get(access.accountId);
      // OAuth tokens act as the live key: a signed-in store is a real store.
      return account ? { account, env: account.envs.live } : null;
    }
    return null;
  }

  setBalance(accountId: string, environment: Environment, balanceMinor: number): EnvState {
    const account = this.accounts.get(accountId);
    if (!account) throw new ApiError(404, 'accountNotFound', `No account ${accountId}`);
    account.envs[environment].balanceMinor = balanceMinor;
    return account.envs[environment];
  }

  setWebhook(env: EnvState, url: string, rotate: boolean): { url: string; signingSecret: string } {
    if (!env.signingSecret || rotate) env.signingSecret = token('whsec_', 24);
    env.webhookUrl = url;
    return { url, signingSecret: env.signingSecret };
  }

  // ---- OAuth ----

  issueCode(account: Account, clientId: string, redirectUri: string): string {
    if (!this.oauthClientIds.includes(clientId)) this.oauthClientIds.push(clientId);
    const code = token('sbx_code_', 16);
    this.authCodes.set(code, { accountId: account.id, clientId, redirectUri, expiresAtMs: Date.now() + CODE_TTL_MS, used: false });
    return code;
  }

  exchangeCode(code: string, redirectUri: string, clientId: string): { accessToken: string; accountId: string } {
    const grant = this.authCodes.get(code);
    if (!grant) throw new ApiError(400, 'invalidGrant', 'Unknown authorization code');
    if (grant.used) throw new ApiError(400, 'invalidGrant', 'Authorization code was already used');
    if (grant.expiresAtMs <= Date.now()) throw new ApiError(400, 'invalidGrant', 'Authorization code has expired');
    if (grant.redirectUri !== redirectUri) throw new ApiError(400, 'invalidGrant', 'redirect_uri does not match the authorization request');
    if (grant.clientId !== clientId) throw new ApiError(400, 'invalidGrant', 'client_id does not match the authorization request');
    grant.used = true;
    const accessToken = token('sbx_at_', 24);
    this.accessTokens.set(accessToken, {
      accountId: grant.accountId,
      clientId,
      expiresAtMs: Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
    });
    return { accessToken, accountId: grant.accountId };
  }

  // ---- catalogue control ----

  isCountryServed(country: string): boolean {
    return !this.unservedCountries.has(country);
  }

  setCountryServed(country: string, served: boolean): string[] {
    if (served) this.unservedCountries.delete(country);
    else this.unservedCountries.add(country);
    return [...this.unservedCountries].sort();
  }

  updateVariant(variantId: string, patch: { costMinor?: number; stock?: number; available?: boolean }): Product {
    const found = this.catalogue.getVariant(variantId);
    if (!found) throw new ApiError(404, 'variantNotFound', `No variant ${variantId}`);
    const { product, variant } = found;
    if (patch.costMinor !== undefined) variant.costMinor = patch.costMinor;
    if (patch.stock !== undefined) variant.stock = patch.stock;
    if (patch.available !== undefined) variant.available = patch.available;
    product.updatedAt = now();
    for (const account of this.accounts.values()) {
      if (this.faults.silentAccounts.includes(account.id)) continue;
      for (const env of Object.values(account.envs)) {
        if (env.webhookUrl && env.signingSecret) {
          this.notifier.send(
            { url: env.webhookUrl, secret: env.signingSecret },
            { type: 'product.updated', data: { productId: product.id, variantIds: [variant.id] } },
          );
        }
      }
    }
    return product;
  }

  // ---- orders ----

  countCreateAttempt(): void {
    this.createAttempts++;
  }

  createOrder(caller: Caller, input: OrderRequest): OrderRecord {
    const { env } = caller;
    const existing = env.ordersByNumber.get(input.orderNumber);
    if (existing) {
      throw new ApiError(409, 'orderNumberExists', `Order number ${input.orderNumber} already exists as ${existing.order.id}`, {
        orderId: existing.order.id,
      });
    }

    const lines = input.items.map((item) => ({ item, found: this.catalogue.getVariant(item.variantId) }));
    for (const { item, found } of lines) {
      if (!found) {
        throw new ApiError(422, 'variantUnavailable', `Variant ${item.variantId} does not exist`, { variantId: item.variantId });
      }
      if (!found.variant.available) {
        throw new ApiError(422, 'variantUnavailable', `Variant ${item.variantId} is no longer available`, { variantId: item.variantId });
      }
    }

    const country = input.destination.country;
    for (const { found } of lines) {
      const product = found!.product;
      if (!product.shipsTo.includes(country)) {
        throw new ApiError(422, 'destinationUnsupported', `Product ${product.id} does not ship to ${country}`, { productId: product.id });
      }
    }
    if (!this.isCountryServed(country)) {
      throw new ApiError(422, 'destinationUnsupported', `Shipping to ${country} is currently suspended`);
    }

    // The same variant may appear on several lines; stock is checked on the sum.
    const wanted = new Map<string, number>();
    for (const { item } of lines) wanted.set(item.variantId, (wanted.get(item.variantId) ?? 0) + item.quantity);
    for (const [variantId, quantity] of wanted) {
      const { variant } = this.catalogue.getVariant(variantId)!;
      if (variant.stock < quantity) {
        throw new ApiError(422, 'variantUnavailable', `Variant ${variantId} has ${variant.stock} in stock, ${quantity} requested`, {
          variantId,
        });
      }
    }

    const refusal = this.faults.refuseNext;
    if (refusal) {
      refusal.count--;
      if (refusal.count <= 0) this.faults.refuseNext = null;
      throw new ApiError(422, 'orderRefused', refusal.message);
    }

    for (const [variantId, quantity] of wanted) this.catalogue.getVariant(variantId)!.variant.stock -= quantity;

    const items: OrderItem[] = lines.map(({ item, found }) => ({
      variantId: item.variantId,
      quantity: item.quantity,
      unitCostMinor: found!.variant.costMinor,
    }));
    const itemsMinor = items.reduce((sum, i) => sum + i.unitCostMinor * i.quantity, 0);
    const units = items.reduce((sum, i) => sum + i.quantity, 0);
    const shippingMinor = 499 + 100 * (units - 1);
    const at = now();
    const order: Order = {
      id: `SBX-O${randomBytes(6).toString('hex').toUpperCase()}`,
      orderNumber: input.orderNumber,
      status: 'created',
      paid: false,
      items,
      costs: { itemsMinor, shippingMinor, totalMinor: itemsMinor + shippingMinor, currency: 'USD' },
      destination: input.destination,
      shipping: null,
      createdAt: at,
      updatedAt: at,
    };
    const record: OrderRecord = { order, accountId: caller.account.id, environment: env.environment };
    env.orders.set(order.id, record);
    env.ordersByNumber.set(order.orderNumber, record);
    this.orders.set(order.id, record);
    this.createdByNumber.set(order.orderNumber, (this.createdByNumber.get(order.orderNumber) ?? 0) + 1);
    return record;
  }

  getOrder(caller: Caller, id: string): OrderRecord {
    const record = caller.env.orders.get(id);
    if (!record) throw orderNotFound(id);
    return record;
  }

  listOrders(caller: Caller): OrderRecord[] {
    return [...caller.env.orders.values()].reverse();
  }

  findOrderByNumber(caller: Caller, orderNumber: string): OrderRecord | undefined {
    return caller.env.ordersByNumber.get(orderNumber);
  }

  payOrder(caller: Caller, id: string): OrderRecord {
    const record = this.getOrder(caller, id);
    const { order } = record;
    if (order.paid) throw new ApiError(409, 'alreadyPaid', `Order ${id} is already paid`);
    if (order.status === 'cancelled') throw new ApiError(409, 'orderCancelled', `Order ${id} is cancelled`);
    const total = order.costs.totalMinor;
    if (caller.env.balanceMinor < total) {
      throw new ApiError(402, 'insufficientBalance', `Balance ${dollars(caller.env.balanceMinor)} is below the order total ${dollars(total)}`, {
        balanceMinor: caller.env.balanceMinor,
        requiredMinor: total,
      });
    }
    caller.env.balanceMinor -= total;
    order.paid = true;
    this.payments.push(this.movement(record, total));
    this.transition(record, 'paid');
    if (this.options.autoShipAfterMs > 0) {
      const timer = this.orderTimers.after(this.options.autoShipAfterMs, () => {
        this.autoShipTimers.delete(order.id);
        if (order.status === 'paid' || order.status === 'processing') this.ship(record, AUTO_SHIP_CARRIER, trackingNumber());
      });
      this.autoShipTimers.set(order.id, timer);
    }
    return record;
  }

  cancelOrder(caller: Caller, id: string): OrderRecord {
    const record = this.getOrder(caller, id);
    const { order } = record;
    if (order.status === 'shipped' || order.status === 'delivered') {
      throw new ApiError(409, 'alreadyShipped', `Order ${id} has already shipped`);
    }
    if (order.status === 'cancelled') return record;
    if (order.paid) {
      caller.env.balanceMinor += order.costs.totalMinor;
      order.paid = false;
      this.refunds.push(this.movement(record, order.costs.totalMinor));
    }
    for (const item of order.items) {
      const found = this.catalogue.getVariant(item.variantId);
      if (found) found.variant.stock += item.quantity;
    }
    const timer = this.autoShipTimers.get(order.id);
    if (timer) {
      this.orderTimers.cancel(timer);
      this.autoShipTimers.delete(order.id);
    }
    this.transition(record, 'cancelled');
    return record;
  }

  /** Control-side lookup: any account, any environment. */
  anyOrder(id: string): OrderRecord {
    const record = this.orders.get(id);
    if (!record) throw orderNotFound(id);
    return record;
  }

  markProcessing(record: OrderRecord): OrderRecord {
    if (record.order.status !== 'paid') {
      throw new ApiError(409, 'invalidTransition', `Order ${record.order.id} is ${record.order.status}; only paid orders can start processing`);
    }
    this.transition(record, 'processing');
    return record;
  }

  shipByControl(record: OrderRecord, carrier?: string, tracking?: string): OrderRecord {
    const { status } = record.order;
    if (status !== 'paid' && status !== 'processing') {
      throw new ApiError(409, 'invalidTransition', `Order ${record.order.id} is ${status}; only paid or processing orders can ship`);
    }
    return this.ship(record, carrier ?? AUTO_SHIP_CARRIER, tracking ?? trackingNumber());
  }

  deliver(record: OrderRecord): OrderRecord {
    if (record.order.status !== 'shipped') {
      throw new ApiError(409, 'invalidTransition', `Order ${record.order.id} is ${record.order.status}; only shipped orders can be delivered`);
    }
    this.transition(record, 'delivered');
    return record;
  }

  // ---- control bookkeeping ----

  /** Counts a call of an account while it is answered; answers the function that ends it. */
  callStarted(accountId: string): () => void {
    let load = this.callLoad.get(accountId);
    if (!load) this.callLoad.set(accountId, (load = { now: 0, max: 0, arrivals: [] }));
    load.now++;
    load.max = Math.max(load.max, load.now);
    load.arrivals.push(Date.now());
    if (load.arrivals.length > 2000) load.arrivals.splice(0, 1000);
    const l = load;
    return () => void l.now--;
  }

  resetCallLoad(): void {
    this.callLoad = new Map();
  }

  received(): Record<string, unknown> {
    return {
      callLoad: Object.fromEntries([...this.callLoad].map(([id, l]) => [id, { maxInFlight: l.max, arrivals: l.arrivals }])),
      orders: [...this.orders.values()].map(({ order, accountId, environment }) => ({
        id: order.id,
        accountId,
        environment,
        orderNumber: order.orderNumber,
        status: order.status,
        paid: order.paid,
        totalMinor: order.costs.totalMinor,
      })),
      ordersByNumber: Object.fromEntries(this.createdByNumber),
      createAttempts: this.createAttempts,
      payments: this.payments,
      refunds: this.refunds,
      notificationsSent: this.notifier.counters.sent,
      notificationsDelivered: this.notifier.counters.delivered,
      notificationsFailed: this.notifier.counters.failed,
      oauthClientIds: this.oauthClientIds,
    };
  }

  /** Back to a fresh catalogue and no orders; accounts, keys, balances, webhooks and tokens survive. */
  reset(): void {
    this.faults = noFaults();
    this.orderTimers.clear();
    this.autoShipTimers.clear();
    for (const account of this.accounts.values()) {
      for (const env of Object.values(account.envs)) {
        env.orders.clear();
        env.ordersByNumber.clear();
      }
    }
    this.orders = new Map();
    this.payments = [];
    this.refunds = [];
    this.createAttempts = 0;
    this.callLoad = new Map();
    this.createdByNumber = new Map();
    this.unservedCountries = new Set();
    this.notifier.counters.sent = 0;
    this.notifier.counters.delivered = 0;
    this.notifier.counters.failed = 0;
    this.catalogue = new Catalogue(this.options.seed, this.options.productCount);
  }

  stop(): void {
    this.orderTimers.clear();
    this.autoShipTimers.clear();
  }

  private ship(record: OrderRecord, carrier: string, tracking: string): OrderRecord {
    record.order.shipping = { carrier, trackingNumber: tracking, shippedAt: now() };
    this.transition(record, 'shipped');
    return record;
  }

  private transition(record: OrderRecord, status: OrderStatus): void {
    const { order } = record;
    order.status = status;
    order.updatedAt = now();
    this.log.debug({ orderId: order.id, status }, 'order status changed');
    const env = this.accounts.get(record.accountId)?.envs[record.environment];
    if (env?.webhookUrl && env.signingSecret && !this.faults.silentAccounts.includes(record.accountId)) {
      this.notifier.send(
        { url: env.webhookUrl, secret: env.signingSecret },
        { type: 'order.updated', data: { orderId: order.id, orderNumber: order.orderNumber, status } },
      );
    }
  }

  private movement(record: OrderRecord, amountMinor: number): MoneyMovement {
    return {
      orderId: record.order.id,
      orderNumber: record.order.orderNumber,
      amountMinor,
      at: now(),
      accountId: record.accountId,
      environment: record.environment,
    };
  }
}

function trackingNumber(): string {
  let digits = '';
  for (let i = 0; i < 12; i++) digits += String(randomInt(10));
  return `SBX${digits}`;
}

