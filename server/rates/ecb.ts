/**
 * The European Central Bank's euro reference rates, in the `eurofxref-daily.xml` format: one dated `Cube` holding a
 * `Cube currency='USD' rate='1.0705'` per currency. Read without an XML library: the format is small and fixed, so
 * the reader takes exactly it and refuses anything else (two dates, a rate that is not a positive decimal, a currency
 * ISO 4217 does not list, a currency twice, no rates). Published for information only (docs/decisions.md).
 */
import { isCurrency } from '../platform/currencies';
import { normalRate, RateFormatError } from './decimal';
import { type ExchangeRatesProvider, type RatesSnapshot, RatesUnavailableError } from './provider';

export const MAX_BYTES = 256 * 1024;
// Every pattern here is matched in linear time (docs/security.md, "ECB reader"): no unbounded run before a literal
// that may be missing (the envelope's two ends are checked apart, a day's end and comments are found by indexOf).
const ENVELOPE_OPEN = /<(?:[\w-]{1,40}:)?Envelope\b/;
const ENVELOPE_CLOSE = /<\/(?:[\w-]{1,40}:)?Envelope>$/;
const DAY_OPEN = /<Cube\s{1,40}time\s{0,40}=\s{0,40}(['"])(\d{4}-\d{2}-\d{2})\1\s{0,40}>/g;
const RATE_CUBE = /<Cube\s{1,40}currency\s{0,40}=\s{0,40}(['"])([A-Z]{3})\1\s{1,40}rate\s{0,40}=\s{0,40}(['"])([^'"]{0,40})\3\s{0,40}\/>/g;

/** The text without its comments, each found by indexOf; an unclosed comment is malformed. */
function withoutComments(text: string, bad: (why: string) => never): string {
  let out = '';
  for (let at = 0; ;) {
    const open = text.indexOf('<!--', at);
    if (open < 0) return out + text.slice(at);
    const close = text.indexOf('-->', open + 4);
    if (close < 0) bad('an unclosed comment');
    out += text.slice(at, open);
    at = close + 3;
  }
}

/** One day's rates from the file's text; throws RatesUnavailableError for anything but the ECB's shape. */
export function parseEcbDaily(xml: string): RatesSnapshot {
  const bad = (why: string): never => {
    throw new RatesUnavailableError(`malformed ECB reference rates: ${why}`);
  };
  if (xml.length > MAX_BYTES) bad('larger than the reader takes');
  if (!ENVELOPE_OPEN.test(xml) || !ENVELOPE_CLOSE.test(xml.trimEnd().slice(-60))) bad('no gesmes Envelope');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) bad('a document type declaration');
  // Each dated Cube ends at the first </Cube> after it (its rates are self-closing); the search goes on from there.
  const days: Array<{ asOfDate: string; body: string }> = [];
  DAY_OPEN.lastIndex = 0;
  for (let m = DAY_OPEN.exec(xml); m; m = DAY_OPEN.exec(xml)) {
    const start = m.index + m[0].length;
    const end = xml.indexOf('</Cube>', start);
    if (end < 0) bad('a dated Cube that is never closed');
    days.push({ asOfDate: m[2], body: xml.slice(start, end) });
    if (days.length > 1) break;
    DAY_OPEN.lastIndex = end;
  }
  if (days.length !== 1) bad(`${days.length} dated Cubes, expected one`);
  const [{ asOfDate, body }] = days;
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
  if (withoutComments(body.replace(RATE_CUBE, ''), bad).trim() !== '') bad('an element that is not a rate');
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
      text = await readBounded(res, MAX_BYTES);
    } catch (err) {
      if (err instanceof RatesUnavailableError) throw err;
      throw new RatesUnavailableError(`the ECB reference rates could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseEcbDaily(text);
  }
}

/** The body as text, read chunk by chunk: past `limit` bytes the read stops there and the connection is let go. */
async function readBounded(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new RatesUnavailableError('the ECB reference rates answer is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
