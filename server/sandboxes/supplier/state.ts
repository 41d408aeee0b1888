import type { Logger } from 'pino';
import { Accounts, type Account, type Caller, type EnvState } from './accounts';
import { Catalogue } from './catalogue';
import { ApiError } from './errors';
import { noFaults } from './faults';
import type { Notifier } from './notifier';
import { Orders, type OrderRecord } from './orders';
import { Records } from './records';
import { SignIns } from './sign-ins';
import type { Faults, NotificationEvent, Product } from './types';
import { MAIN_WAREHOUSE, type Warehouse } from './warehouse';
import { Claims } from './claims';
import { Journeys, type ParcelException, SandboxClock } from './journeys';

export interface StateOptions {
  seed: number;
  productCount: number;
  autoShipAfterMs: number;
  warehouse?: Warehouse;
}

type EventBody = Omit<NotificationEvent, 'id' | 'createdAt'>;

/**
 * Everything the sandbox remembers, in memory. Mutations are synchronous, so concurrent requests cannot interleave
 * a check and its write. A control reset starts the catalogue, the orders, the faults and the records afresh;
 * accounts, keys, balances, webhooks and sign-ins survive it.
 */
export class SandboxState {
  readonly accounts: Accounts;
  readonly warehouse: Warehouse;
  readonly signIns = new SignIns();
  catalogue: Catalogue;
  faults: Faults = noFaults();
  records = new Records();
  orders: Orders;
  /** After shipping: the clock a test moves, parcels' scans on it, and claims. */
  readonly clock = new SandboxClock();
  journeys = new Journeys(this.clock);
  claims = new Claims();
  private unservedCountries = new Set<string>();

  constructor(
    private readonly options: StateOptions,
    private readonly notifier: Notifier,
    private readonly log: Logger,
  ) {
    this.warehouse = options.warehouse ?? MAIN_WAREHOUSE;
    this.accounts = new Accounts(this.warehouse.builtInAccount);
    this.catalogue = new Catalogue(options.seed, options.productCount, this.warehouse);
    this.orders = this.newOrders();
  }

  private newOrders(): Orders {
    return new Orders({
      catalogue: this.catalogue,
      records: this.records,
      faults: () => this.faults,
      isCountryServed: (country) => !this.unservedCountries.has(country),
      notify: (record) => this.orderChanged(record),
      autoShipAfterMs: this.options.autoShipAfterMs,
      shipping: this.warehouse.shipping,
      reship: (caller, claimId) => {
        if (this.claims.get(caller, claimId).outcome?.kind !== 'reship')
          throw new ApiError(409, 'notReshippable', `Claim ${claimId} is not approved for a reship`);
        this.records.reshipsByClaim.set(claimId, (this.records.reshipsByClaim.get(claimId) ?? 0) + 1);
      },
    });
  }

  /** An order as the sandbox answers it: with when it was paid and shipped, and its parcel's scans, as the clock reports them. */
  orderView(record: OrderRecord): Record<string, unknown> {
    const { order } = record;
    const days = Math.max(1, ...order.items.map((i) => this.catalogue.getVariant(i.variantId)?.product.deliveryDays.max ?? 12));
    const seen = this.journeys.view(order, days);
    return {
      ...order,
      paidAt: seen.paidAt,
      shipping: order.shipping ? { ...order.shipping, shippedAt: seen.shippedAt ?? order.shipping.shippedAt } : null,
      tracking: seen.tracking,
    };
  }

  /** The clock moves: parcels scanned meanwhile move on (the last scan delivers), and every order not yet delivered is told. */
  advanceClock(hours: number): { offsetHours: number; delivered: string[] } {
    this.clock.offsetMs += hours * 3_600_000;
    const delivered = this.journeys.advance((id) => this.orders.byIdAny(id)?.order);
    for (const id of delivered) {
      const record = this.orders.byIdAny(id);
      if (record?.order.status === 'shipped') this.orders.deliver(record);
    }
    for (const record of this.orders.all()) if (['paid', 'processing', 'shipped'].includes(record.order.status)) this.orderChanged(record);
    return { offsetHours: this.clock.offsetMs / 3_600_000, delivered };
  }

  /** A test stalls a parcel, or puts it in a carrier's exception; its order is told. */
  parcel(record: OrderRecord, change: { stalled?: boolean; exception?: ParcelException; description?: string }): boolean {
    const known = change.exception
      ? this.journeys.exception(record.order.id, change.exception, change.description)
      : this.journeys.stall(record.order.id, change.stalled ?? true);
    if (known) this.orderChanged(record);
    return known;
  }

  /** A test decides a claim: a refund goes back to the balance; the account is told. */
  decideClaim(id: string, body: { outcome?: unknown; amountMinor?: number; message?: string }) {
    const claim = this.claims.get(null, id);
    const record = this.orders.any(claim.orderId);
    const decided = this.claims.decide(id, body, record);
    const account = this.accounts.get(claim.accountId);
    if (decided.outcome?.kind === 'refund' && account) {
      const env = account.envs[record.environment];
      env.balanceMinor += decided.outcome.amountMinor;
      this.records.refunds.push({
        orderId: record.order.id,
        orderNumber: record.order.orderNumber,
        amountMinor: decided.outcome.amountMinor,
        at: new Date().toISOString(),
        accountId: account.id,
        environment: record.environment,
      });
    }
    if (account)
      this.notify(account, account.envs[record.environment], {
        type: 'claim.updated',
        data: { claimId: id, orderId: record.order.id, status: decided.status },
      });
    return decided;
  }

  /** The caller a bearer token stands for: an API key, or a sign-in's access token (which acts as the live key). */
  authenticate(bearer: string): Caller | null {
    const byKey = this.accounts.byKey(bearer);
    if (byKey) return byKey;
    const account = this.accounts.get(this.signIns.accountOf(bearer) ?? '');
    return account ? { account, env: account.envs.live } : null;
  }

  setCountryServed(country: string, served: boolean): string[] {
    if (served) this.unservedCountries.delete(country);
    else this.unservedCountries.add(country);
    return [...this.unservedCountries].sort();
  }

  /** A supplier-side change of a variant; every listening account hears of it. */
  updateVariant(variantId: string, patch: { costMinor?: number; stock?: number; available?: boolean }): Product {
    const found = this.catalogue.getVariant(variantId);
    if (!found) throw new ApiError(404, 'variantNotFound', `No variant ${variantId}`);
    const { product, variant } = found;
    if (patch.costMinor !== undefined) variant.costMinor = patch.costMinor;
    if (patch.stock !== undefined) variant.stock = patch.stock;
    if (patch.available !== undefined) variant.available = patch.available;
    product.updatedAt = new Date().toISOString();
    for (const account of this.accounts.all()) {
      for (const env of Object.values(account.envs))
        this.notify(account, env, { type: 'product.updated', data: { productId: product.id, variantIds: [variant.id] } });
    }
    return product;
  }

  private orderChanged({ order, accountId, environment }: OrderRecord): void {
    this.log.debug({ orderId: order.id, status: order.status }, 'order status changed');
    if (order.paid) this.journeys.paidNow(order.id);
    if (order.status === 'shipped') this.journeys.start(order);
    const account = this.accounts.get(accountId);
    if (account)
      this.notify(account, account.envs[environment], {
        type: 'order.updated',
        data: { orderId: order.id, orderNumber: order.orderNumber, status: order.status },
      });
  }

  /** Sent when the environment has a notification address, unless a fault silences the account. */
  private notify(account: Account, env: EnvState, event: EventBody): void {
    if (!env.webhookUrl || !env.signingSecret || this.faults.silentAccounts.includes(account.id)) return;
    this.notifier.send({ url: env.webhookUrl, secret: env.signingSecret }, event);
  }

  received(): Record<string, unknown> {
    const { callLoad, ...records } = this.records.view();
    const orders = [...this.orders.all()].map(({ order, accountId, environment }) => ({
      id: order.id,
      accountId,
      environment,
      orderNumber: order.orderNumber,
      status: order.status,
      paid: order.paid,
      totalMinor: order.costs.totalMinor,
      currency: order.costs.currency,
    }));
    const { sent, delivered, failed } = this.notifier.counters;
    const claims = this.claims.all().map((c) => ({
      id: c.id,
      claimKey: c.claimKey,
      orderId: c.orderId,
      status: c.status,
      outcome: c.outcome,
      opens: this.claims.opensByKey.get(c.claimKey) ?? 0,
    }));
    return {
      callLoad,
      orders,
      ...records,
      claims,
      claimOpensByKey: Object.fromEntries(this.claims.opensByKey),
      clockOffsetHours: this.clock.offsetMs / 3_600_000,
      notificationsSent: sent,
      notificationsDelivered: delivered,
      notificationsFailed: failed,
      oauthClientIds: this.signIns.clientIds,
    };
  }

  reset(): void {
    this.orders.stop();
    this.faults = noFaults();
    this.records = new Records();
    this.unservedCountries = new Set();
    this.notifier.counters.sent = 0;
    this.notifier.counters.delivered = 0;
    this.notifier.counters.failed = 0;
    this.catalogue = new Catalogue(this.options.seed, this.options.productCount, this.warehouse);
    this.orders = this.newOrders();
    this.clock.offsetMs = 0;
    this.journeys = new Journeys(this.clock);
    this.claims = new Claims();
  }

  stop(): void {
    this.orders.stop();
  }
}
