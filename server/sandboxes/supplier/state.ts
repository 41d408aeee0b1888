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
    });
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
      for (const env of Object.values(account.envs)) this.notify(account, env, { type: 'product.updated', data: { productId: product.id, variantIds: [variant.id] } });
    }
    return product;
  }

  private orderChanged({ order, accountId, environment }: OrderRecord): void {
    this.log.debug({ orderId: order.id, status: order.status }, 'order status changed');
    const account = this.accounts.get(accountId);
    if (account) this.notify(account, account.envs[environment], { type: 'order.updated', data: { orderId: order.id, orderNumber: order.orderNumber, status: order.status } });
  }

  /** Sent when the environment has a notification address, unless a fault silences the account. */
  private notify(account: Account, env: EnvState, event: EventBody): void {
    if (!env.webhookUrl || !env.signingSecret || this.faults.silentAccounts.includes(account.id)) return;
    this.notifier.send({ url: env.webhookUrl, secret: env.signingSecret }, event);
  }

  received(): Record<string, unknown> {
    const { callLoad, ...records } = this.records.view();
    const orders = [...this.orders.all()].map(({ order, accountId, environment }) => ({ id: order.id, accountId, environment, orderNumber: order.orderNumber, status: order.status, paid: order.paid, totalMinor: order.costs.totalMinor, currency: order.costs.currency }));
    const { sent, delivered, failed } = this.notifier.counters;
    return { callLoad, orders, ...records, notificationsSent: sent, notificationsDelivered: delivered, notificationsFailed: failed, oauthClientIds: this.signIns.clientIds };
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
  }

  stop(): void {
    this.orders.stop();
  }
}
