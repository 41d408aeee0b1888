import type { SupplierConnection, SupplierGateway } from '../../connections';
import { formatMoney } from '../../platform/money';
import type { Rate } from '../../rates';
import { convertMinor } from '../../rates/decimal';
import type { ShippingQuote, SupplierProduct } from '../../suppliers/adapter';
import { SupplierError } from '../../suppliers/errors';
import type { SupplierRegistry } from '../../suppliers/registry';
import { noRateMessage, type StoreRates } from '../landed';
import { cleanReviewMessage } from '../review-reasons';
import type { Work } from '../work';
import { type Candidate, type Money, type Offer, Refusal } from './types';
import { judge } from './judge';

/** What the sourcing unit reads through: the supplier registry, the connections' gateway, the rates. */
export interface SourcingDeps {
  registry: SupplierRegistry;
  gateway: SupplierGateway;
  rates: StoreRates;
  /** A connection of the store by id (an earlier supplier of a moved part); null when gone. */
  connection(storeId: string, id: string): Promise<SupplierConnection | null>;
}

const money = (m: Money) => formatMoney(m.amountMinor, m.currency);

/**
 * One job's evaluation of candidates: each read once (its products and its shipping quote, side by side), whatever
 * asks (the send, routing, rerouting), and judged in one fixed order. Rates are looked up once per pair.
 */
export class Evaluation {
  private readonly offers = new Map<string, Promise<Offer | Refusal>>();
  private readonly rateAnswers = new Map<string, Promise<Rate | Refusal>>();
  /** Supplier calls this job made to read candidates (products and shipping quotes): the benchmark's figure. */
  reads = 0;

  constructor(
    readonly deps: SourcingDeps,
    readonly work: Work,
  ) {}

  get storeCurrency(): string {
    return this.work.storeCurrency;
  }

  /**
   * What needs no supplier call, in this order: the supplier not switched off by the operator, the connection present
   * and on, a sandbox in test mode, its circuit closed (these hold for the whole connection), then (for a connection
   * other than the part's) its automation on, and the destination not excluded by the store.
   */
  admissible(c: Candidate): Refusal | null {
    const conn = c.conn;
    const { so } = this.work;
    if (!conn || conn.storeId !== so.storeId) return new Refusal('connectionMissing', 'not a connection of this store');
    const adapter = this.deps.registry.find(conn.supplierKey);
    const connection = (reason: ConstructorParameters<typeof Refusal>[0], why: string) => new Refusal(reason, why, {}, 'connection');
    if (!adapter || this.deps.registry.isSwitchedOff(conn.supplierKey))
      return connection('connectionMissing', `The supplier ${conn.supplierKey} is switched off by the operator of this service.`);
    if (conn.disconnectedAt || !conn.credentialsSealed) return connection('connectionMissing', 'The connection was removed.');
    if (!conn.enabled) return connection('connectionMissing', 'The connection is switched off.');
    if (conn.mode === 'test' && !adapter.entry.capabilities.hasSandbox) {
      return connection('testMode', `${adapter.entry.name} has no test environment; no order was placed while the connection is in test mode.`);
    }
    if (circuitOpen(conn)) return connection('connectionUnhealthy', 'The connection is paused after repeated supplier errors.');
    if (c.position !== null && conn.automation.level === 'off') return new Refusal('connectionMissing', 'its automation is off');
    const country = so.destination.country.toUpperCase();
    if (conn.automation.excludedCountries.includes(country)) return new Refusal('destinationUnsupported', `The store excluded ${country} for this supplier.`);
    return null;
  }

  /** The candidate's offer, or why it cannot take the part; read once per job and candidate. */
  offer(c: Candidate): Promise<Offer | Refusal> {
    const key = `${c.connectionId}|${c.items.map((i) => `${i.id}:${i.supplierVariantId}`).join(',')}`;
    let found = this.offers.get(key);
    if (!found) this.offers.set(key, (found = this.evaluate(c)));
    return found;
  }

  /** The rate from `currency` to the store's, or the pause a missing one makes (the sweeper resumes it). */
  rate(currency: string): Promise<Rate | Refusal> {
    let found = this.rateAnswers.get(currency);
    if (!found) {
      found = this.deps.rates.rateFor(currency, this.storeCurrency).then((r) =>
        r.available
          ? r
          : new Refusal('exchangeRateUnavailable', noRateMessage(r), {
              from: r.from,
              to: r.to,
              rateUnavailable: r.reason,
              ...(r.asOfDate ? { rateAsOf: r.asOfDate } : {}),
            }),
      );
      this.rateAnswers.set(currency, found);
    }
    return found;
  }

  /** `m` in the store's currency at today's rate; throws the rate's refusal when there is none. */
  async inStore(m: Money): Promise<number> {
    const r = await this.rate(m.currency);
    if (r instanceof Refusal) throw r;
    return convertMinor(m.amountMinor, m.currency, this.storeCurrency, r.rate);
  }

  /** `m` in its own currency and, when that is not the store's, in the store's too: "€12.00 (US$13.05)". */
  async words(m: Money): Promise<string> {
    if (m.currency === this.storeCurrency) return money(m);
    const r = await this.rate(m.currency);
    return r instanceof Refusal
      ? money(m)
      : `${money(m)} (${money({ amountMinor: convertMinor(m.amountMinor, m.currency, this.storeCurrency, r.rate), currency: this.storeCurrency })})`;
  }

  private async evaluate(c: Candidate): Promise<Offer | Refusal> {
    const refused = this.admissible(c);
    if (refused) return refused;
    try {
      return await judge(this, c, await this.read(c));
    } catch (err) {
      if (err instanceof Refusal) return err;
      throw err;
    }
  }

  /** The candidate's products, then its shipping quote, through the gateway (its circuit, pace and time-out). */
  private async read(c: Candidate): Promise<{ products: Map<string, SupplierProduct>; shipping: ShippingQuote }> {
    const conn = c.conn!;
    const { so } = this.work;
    const ids = [...new Set(c.items.map((i) => i.supplierProductId))];
    const input = { items: c.items.map((i) => ({ variantId: i.supplierVariantId, quantity: i.quantity })), destination: so.destination };
    const call = <T>(what: 'product' | 'shipping', id: string, fn: () => Promise<T>): Promise<T> => {
      this.reads++;
      return fn().catch((err: unknown) => {
        throw refusalOf(err, what, id, so.destination.country.toUpperCase());
      });
    };
    // One call at a time: a supplier's limit on calls in flight counts a job's calls, not its jobs.
    const products = new Map<string, SupplierProduct>();
    for (const id of ids) products.set(id, await call('product', id, () => this.deps.gateway.call(conn, (a, ctx) => a.getProduct(ctx, id))));
    const shipping = await call('shipping', '', () => this.deps.gateway.call(conn, (a, ctx) => a.quoteShipping(ctx, input)));
    return { products, shipping };
  }

  /** Whether `a` is above `b`: as they are in one currency, else both in the store's at today's rates. */
  async above(a: Money, b: Money): Promise<boolean> {
    return a.currency === b.currency ? a.amountMinor > b.amountMinor : (await this.inStore(a)) > (await this.inStore(b));
  }
}

export function circuitOpen(conn: SupplierConnection): boolean {
  return !!conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now();
}

/** A supplier's error while reading a candidate, as the refusal it makes. */
function refusalOf(err: unknown, what: 'product' | 'shipping', id: string, country: string): Refusal {
  if (!(err instanceof SupplierError)) throw err;
  if (what === 'product' && err.kind === 'notFound') return new Refusal('variantUnavailable', `The supplier no longer offers product ${id}.`);
  // A quote refused (no service there, or none the rule allows) is the destination's, not a passing fault.
  if (what === 'shipping' && ['destinationUnsupported', 'notFound', 'refused', 'variantUnavailable'].includes(err.kind)) {
    return new Refusal(
      err.kind === 'variantUnavailable' ? 'variantUnavailable' : 'destinationUnsupported',
      `The supplier quotes no shipping to ${country}: ${cleanReviewMessage(err.message)}`,
    );
  }
  if (what === 'product' && err.kind === 'variantUnavailable')
    return new Refusal('variantUnavailable', `The supplier no longer offers product ${id}: ${cleanReviewMessage(err.message)}`);
  return new Refusal(
    'connectionUnhealthy',
    `${what === 'product' ? `Its product ${id}` : 'Its shipping quote'} could not be read (${err.kind}).`,
    {},
    'candidate',
    err,
  );
}
