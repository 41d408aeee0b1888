/**
 * The European Central Bank's euro reference rates, in the `eurofxref-daily.xml` format: one dated `Cube` holding a
 * `Cube currency='USD' rate='1.0705'` per currency. Read without an XML library: the format is small and fixed, so
 * the reader takes exactly it and refuses anything else (two dates, a rate that is not a positive decimal, a currency
 * ISO 4217 does not list, a currency twice, no rates). Published for information only (docs/decisions.md).
 */
import { isCurrency } from '../platform/currencies';
import { normalRate, RateFormatError } from './decimal';
import { type ExchangeRatesProvider, type RatesSnapshot, RatesUnavailableError } from './provider';

const MAX_BYTES = 256 * 1024;
const ENVELOPE = /<(?:[\w-]+:)?Envelope\b[\s\S]*<\/(?:[\w-]+:)?Envelope>\s*$/;
const DAY = /<Cube\s+time\s*=\s*(['"])(\d{4}-\d{2}-\d{2})\1\s*>([\s\S]*?)<\/Cube>/g;
const RATE_CUBE = /<Cube\s+currency\s*=\s*(['"])([A-Z]{3})\1\s+rate\s*=\s*(['"])([^'"]*)\3\s*\/>/g;

/** One day's rates from the file's text; throws RatesUnavailableError for anything but the ECB's shape. */
export function parseEcbDaily(xml: string): RatesSnapshot {
  const bad = (why: string): never => {
    throw new RatesUnavailableError(`malformed ECB reference rates: ${why}`);
  };
  if (!ENVELOPE.test(xml)) bad('no gesmes Envelope');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) bad('a document type declaration');
  const days = [...xml.matchAll(DAY)];
  if (days.length !== 1) bad(`${days.length} dated Cubes, expected one`);
  const [, , asOfDate, body] = days[0];
  const date = new Date(`${asOfDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== asOfDate) bad(`not a date: ${asOfDate}`);
  const perEuro = new Map<string, string>();
  for (const [, , currency, , rate] of body.matchAll(RATE_CUBE)) {
    if (!isCurrency(currency) || currency === 'EUR') bad(`not a currency to list: ${currency}`);
    if (perEuro.has(currency)) bad(`${currency} twice`);
    try {
      perEuro.set(currency, normalRate(rate));
    } catch (err) {
      if (err instanceof RateFormatError) bad(`${currency}: ${err.message}`);
      throw err;
    }
  }
  // Everything in the day's Cube must have been a rate: anything else is a shape this reader does not know.
  if (body.replace(RATE_CUBE, '').replace(/<!--[\s\S]*?-->/g, '').trim() !== '') bad('an element that is not a rate');
  if (!perEuro.size) bad('no rates');
  return { asOfDate, perEuro };
}

/** The default provider: GET of the configured address (EXCHANGE_RATES_URL), bounded in time and size. */
export class EcbRatesProvider implements ExchangeRatesProvider {
  readonly source = 'ecb' as const;
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async latest(): Promise<RatesSnapshot> {
    if (!this.url) throw new RatesUnavailableError('no exchange rates address is configured (EXCHANGE_RATES_URL)');
    let text: string;
    try {
      const res = await fetch(this.url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error', headers: { Accept: 'application/xml, text/xml' } });
      if (!res.ok) throw new RatesUnavailableError(`the ECB reference rates answered ${res.status}`);
      text = await res.text();
    } catch (err) {
      if (err instanceof RatesUnavailableError) throw err;
      throw new RatesUnavailableError(`the ECB reference rates could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (text.length > MAX_BYTES) throw new RatesUnavailableError('the ECB reference rates answer is too large');
    return parseEcbDaily(text);
  }
}
