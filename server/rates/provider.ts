/**
 * The exchange rates contract: where the service's reference rates come from. A provider answers one day's rates,
 * each as units of the currency one euro buys (a decimal string), or throws RatesUnavailableError. The default is the
 * European Central Bank's daily reference rates (./ecb.ts); nothing else of the service knows the source's format.
 */
export interface RatesSnapshot {
  /** The day the source published these rates for (YYYY-MM-DD). */
  asOfDate: string;
  /** Currency → units of it one euro buys, a decimal string ("USD" → "1.0705"); EUR itself is not listed. */
  perEuro: Map<string, string>;
}

export interface ExchangeRatesProvider {
  /** The source's name, kept beside each rate it gave ('ecb'). */
  readonly source: 'ecb';
  /** The latest published rates; throws RatesUnavailableError when the source cannot be read or its answer is not well formed. */
  latest(): Promise<RatesSnapshot>;
}

export class RatesUnavailableError extends Error {}
