import type { DataSource } from 'typeorm';
import { isCurrency } from '../platform/currencies';
import type { Logger } from '../platform/logger';
import { convertMinor, crossRate, inverseRate, normalRate } from './decimal';
import { errors } from '../platform/errors';
import type { ExchangeRatesProvider } from './provider';
import { anyRateStored, latestPerEuro, pinOf, type PinRow, removePin, savePin, storeRates } from './sql';

export type RateSource = 'ecb' | 'pinned' | 'identity';

export interface Rate {
  available: true;
  /** Units of `to` per unit of `from`, a decimal string. */
  rate: string;
  source: RateSource;
  /** The day the rate is for (YYYY-MM-DD): the source's publication day, the pin's day, or the day asked about. */
  asOfDate: string;
  /** When the rate was fetched (for a cross rate, the older of its two legs); null for identity and pinned rates. */
  fetchedAt: string | null;
}

/** No rate to use: none stored (`missing`), or the newest is older than EXCHANGE_RATE_MAX_AGE_DAYS (`stale`). */
export interface RateUnavailable {
  available: false;
  reason: 'missing' | 'stale' | 'unknownCurrency';
  from: string;
  to: string;
  /** The newest rate's day, when one is stored but stale. */
  asOfDate: string | null;
}

export type RateAnswer = Rate | RateUnavailable;
export type Conversion = (Rate & { amountMinor: number; currency: string }) | RateUnavailable;

export interface PinView {
  base: string;
  quote: string;
  rate: string;
  reason: string;
  pinnedAt: string;
}

const DAY_MS = 86_400_000;
const today = (): string => new Date().toISOString().slice(0, 10);
const daysBetween = (older: string, newer: string): number => Math.round((Date.parse(`${newer}T00:00:00Z`) - Date.parse(`${older}T00:00:00Z`)) / DAY_MS);
const pinView = (p: PinRow): PinView => ({ base: p.base, quote: p.quote, rate: p.rate, reason: p.reason, pinnedAt: p.pinned_at.toISOString() });

/**
 * The service's exchange rates (docs/decisions.md, "Exchange rates"): fetched daily from the provider and kept, pinned
 * by the operator, looked up and applied exactly. A pinned rate wins over fetched ones; a fetched rate older than
 * `maxAgeDays` is not used. A failed fetch changes nothing stored.
 */
export class ExchangeRateService {
  constructor(
    private readonly db: DataSource,
    private readonly provider: ExchangeRatesProvider,
    private readonly maxAgeDays: number,
    private readonly log: Logger,
  ) {}

  /** Fetches the provider's latest rates and keeps them; throws RatesUnavailableError (nothing stored) when it cannot. */
  async refresh(): Promise<{ source: string; asOfDate: string; currencies: number }> {
    const snapshot = await this.provider.latest();
    await storeRates(this.db, this.provider.source, snapshot.asOfDate, snapshot.perEuro);
    this.log.info({ source: this.provider.source, asOfDate: snapshot.asOfDate, currencies: snapshot.perEuro.size }, 'exchange rates fetched');
    return { source: this.provider.source, asOfDate: snapshot.asOfDate, currencies: snapshot.perEuro.size };
  }

  hasRates(): Promise<boolean> {
    return anyRateStored(this.db);
  }

  /** The rate from `from` to `to` (as of `asOf`, YYYY-MM-DD, or today), or why there is none to use. */
  async rateFor(from: string, to: string, asOf?: string): Promise<RateAnswer> {
    const day = asOf ?? today();
    const none = (reason: RateUnavailable['reason'], asOfDate: string | null = null): RateUnavailable => ({ available: false, reason, from, to, asOfDate });
    if (!isCurrency(from) || !isCurrency(to)) return none('unknownCurrency');
    if (from === to) return { available: true, rate: '1', source: 'identity', asOfDate: day, fetchedAt: null };
    const pin = await pinOf(this.db, from, to);
    if (pin) return { available: true, rate: pin.rate, source: 'pinned', asOfDate: pin.pinned_at.toISOString().slice(0, 10), fetchedAt: null };
    // A pin governs both directions: the other way answers its inverse, 1 / rate rounded half up once to the cross
    // rates' decimals, never a fetched rate that would disagree with it (docs/decisions.md, "A pin governs both ways").
    const opposite = await pinOf(this.db, to, from);
    if (opposite)
      return { available: true, rate: inverseRate(opposite.rate), source: 'pinned', asOfDate: opposite.pinned_at.toISOString().slice(0, 10), fetchedAt: null };
    const legs = [from, to].filter((c) => c !== 'EUR');
    const stored = await latestPerEuro(this.db, legs, day);
    if (stored.length !== legs.length) return none('missing');
    const oldest = stored.reduce((a, b) => (a.as_of_date <= b.as_of_date ? a : b));
    if (daysBetween(oldest.as_of_date, day) > this.maxAgeDays) return none('stale', oldest.as_of_date);
    const perEuro = (c: string) => (c === 'EUR' ? '1' : stored.find((s) => s.currency === c)!.per_euro);
    const fetchedAt = stored.reduce((a, b) => (a.fetched_at <= b.fetched_at ? a : b)).fetched_at;
    return { available: true, rate: crossRate(perEuro(from), perEuro(to)), source: 'ecb', asOfDate: oldest.as_of_date, fetchedAt: fetchedAt.toISOString() };
  }

  /** `amountMinor` of `from` in minor units of `to`, rounded half up once, with the rate used, its source and day. */
  async convert(amountMinor: number, from: string, to: string, asOf?: string): Promise<Conversion> {
    const rate = await this.rateFor(from, to, asOf);
    if (!rate.available) return rate;
    return { ...rate, amountMinor: convertMinor(amountMinor, from, to, rate.rate), currency: to };
  }

  /** Pins base→quote; 409 `oppositePinned` while quote→base is pinned (one pin governs a pair, both ways). */
  async pin(base: string, quote: string, rate: string, reason: string): Promise<PinView> {
    if (await pinOf(this.db, quote, base))
      throw errors.conflict('oppositePinned', `${quote}→${base} is pinned, and a pin governs both ways: unpin it first, or pin that pair.`);
    const saved = await savePin(this.db, base, quote, normalRate(rate), reason).catch((err: unknown) => {
      // The other way pinned meanwhile: the pair's unique index (migration PinOnePerPair) refused this one.
      if ((err as { constraint?: string }).constraint === 'exchange_rate_pins_pair_idx')
        throw errors.conflict('oppositePinned', `${quote}→${base} is pinned, and a pin governs both ways.`);
      throw err;
    });
    const pinned = pinView(saved);
    this.log.info({ base, quote, rate: pinned.rate }, 'operator pinned an exchange rate');
    return pinned;
  }

  async unpin(base: string, quote: string): Promise<boolean> {
    const removed = await removePin(this.db, base, quote);
    if (removed) this.log.info({ base, quote }, 'operator unpinned an exchange rate');
    return removed;
  }
}
