/**
 * Exchange rates as exact decimals (docs/decisions.md, "Exchange rates"): the ECB's file read strictly, cross rates
 * through EUR, and amounts converted in each currency's minor units, rounded half up once, never through a float.
 */
import fc from 'fast-check';
import { convertMinor, crossRate, inverseRate, parseRate } from '../../server/rates/decimal';
import { parseEcbDaily } from '../../server/rates/ecb';
import { RatesUnavailableError } from '../../server/rates/provider';
import { minorUnitsOf } from '../../server/platform/currencies';

const FILE = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube>
    <Cube time='2024-06-28'>
      <Cube currency='USD' rate='1.0705'/>
      <Cube currency='JPY' rate='171.94'/>
      <Cube currency='GBP' rate='0.84638'/>
      <!-- about 30 in all -->
      <Cube currency="KWD" rate="0.32810"/>
    </Cube>
  </Cube>
</gesmes:Envelope>
`;

test('the ECB daily file: its date and each rate per euro, as decimal strings', () => {
  const s = parseEcbDaily(FILE);
  expect(s.asOfDate).toBe('2024-06-28');
  expect(Object.fromEntries(s.perEuro)).toEqual({ USD: '1.0705', JPY: '171.94', GBP: '0.84638', KWD: '0.3281' });
});

test.each([
  ['no envelope', FILE.replace(/<\/gesmes:Envelope>/, '')],
  ['a rate with a comma', FILE.replace("rate='1.0705'", "rate='1,0705'")],
  ['a negative rate', FILE.replace("rate='1.0705'", "rate='-1.0705'")],
  ['a zero rate', FILE.replace("rate='1.0705'", "rate='0.0000'")],
  ['an exponent', FILE.replace("rate='1.0705'", "rate='1e3'")],
  ['a currency twice', FILE.replace("<Cube currency='JPY'", "<Cube currency='USD'")],
  ['not a currency', FILE.replace("currency='JPY'", "currency='XYZ'")],
  ['two days', FILE.replace("<Cube time='2024-06-28'>", "<Cube time='2024-06-27'></Cube><Cube time='2024-06-28'>")],
  ['not a date', FILE.replace('2024-06-28', '2024-02-30')],
  ['something else in the day', FILE.replace("<Cube currency='GBP'", "<Rate currency='GBP' rate='1'/><Cube currency='GBP'")],
  ['no rates', FILE.replace(/<Cube currency[^>]*\/>/g, '')],
  ['an entity declaration', FILE.replace('<gesmes:Envelope', '<!DOCTYPE x [<!ENTITY a "b">]><gesmes:Envelope')],
  ['an HTML error page', '<html><body>Service Unavailable</body></html>'],
])('a malformed file is refused: %s', (_what, xml) => {
  expect(() => parseEcbDaily(xml)).toThrow(RatesUnavailableError);
});

test('USD→JPY is a cross rate through EUR: rate(JPY) / rate(USD), to ten decimals, half up', () => {
  // 171.94 / 1.0705 = 160.6165343297524...
  expect(crossRate('1.0705', '171.94')).toBe('160.6165343298');
  expect(crossRate('1', '1.0705')).toBe('1.0705');
  expect(inverseRate('1.0705')).toBe('0.9341429239');
  expect(crossRate('1.0705', '1.0705')).toBe('1');
});

test('amounts in JPY (0 decimals), USD (2) and KWD (3) convert exactly', () => {
  // 10000 JPY at 0.0062260... USD per JPY: 62.26 USD.
  const jpyUsd = crossRate('171.94', '1.0705');
  expect(jpyUsd).toBe('0.0062260091');
  expect(convertMinor(10000, 'JPY', 'USD', jpyUsd)).toBe(6226);
  expect(convertMinor(4916, 'USD', 'JPY', '160.6165343298')).toBe(7896); // 49.16 × 160.61… = 7895.909…
  expect(convertMinor(1234, 'KWD', 'USD', '3.2627247790')).toBe(403); // 1.234 KWD = 4.0262…
  expect(convertMinor(100, 'USD', 'KWD', '0.3064922933')).toBe(306); // 1.00 USD = 0.3064… KWD
  // Half up: 0.5 of a unit goes up.
  expect(convertMinor(1, 'USD', 'JPY', '50')).toBe(1); // 0.01 × 50 = 0.5
  expect(convertMinor(3, 'USD', 'JPY', '50')).toBe(2); // 1.5
  expect(convertMinor(0, 'USD', 'JPY', '160')).toBe(0);
});

const CURRENCIES = ['JPY', 'USD', 'KWD', 'EUR', 'GBP', 'CLF', 'ISK', 'BHD'] as const;
const rateArb = fc.tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 10 })).map(([u, s]) => {
  const t = String(u).padStart(s + 1, '0');
  return s ? `${t.slice(0, -s)}.${t.slice(-s)}` : t;
});

test('property: the converted amount is the exact product rounded half up: within half a unit, ties up', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1_000_000_000 }),
      fc.constantFrom(...CURRENCIES),
      fc.constantFrom(...CURRENCIES),
      rateArb,
      (amount, from, to, rate) => {
        const r = parseRate(rate);
        // exact = amount × r.units × 10^to / 10^(r.scale + from): compare result against it without dividing.
        const num = BigInt(amount) * r.units * 10n ** BigInt(minorUnitsOf(to));
        const den = 10n ** BigInt(r.scale + minorUnitsOf(from));
        // An amount no JavaScript number holds exactly is refused, never rounded through a float.
        if (num / den >= BigInt(Number.MAX_SAFE_INTEGER)) return void expect(() => convertMinor(amount, from, to, rate)).toThrow(RangeError);
        const result = BigInt(convertMinor(amount, from, to, rate));
        const twice = 2n * (result * den - num); // 2 × (result − exact) × den
        expect(twice > -den && twice <= den).toBe(true);
      },
    ),
    { numRuns: 2000 },
  );
});

test('property: converting is monotonic in the amount, and identity at rate 1', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.integer({ min: 0, max: 1000 }),
      fc.constantFrom(...CURRENCIES),
      fc.constantFrom(...CURRENCIES),
      rateArb,
      (a, d, from, to, rate) => {
        fc.pre(BigInt(a + d) * parseRate(rate).units * 10n ** BigInt(minorUnitsOf(to)) < BigInt(Number.MAX_SAFE_INTEGER));
        expect(convertMinor(a + d, from, to, rate)).toBeGreaterThanOrEqual(convertMinor(a, from, to, rate));
        expect(convertMinor(a, from, from, '1')).toBe(a);
      },
    ),
    { numRuns: 1000 },
  );
});

test('property: a cross rate through EUR is within half its last decimal of rate(quote) / rate(base)', () => {
  fc.assert(
    fc.property(rateArb, rateArb, (base, quote) => {
      const b = parseRate(base);
      const q = parseRate(quote);
      fc.pre(q.units * 10n ** BigInt(b.scale + 10) >= b.units * 10n ** BigInt(q.scale));
      const c = parseRate(crossRate(base, quote));
      // c ≈ q / b, c scaled to 10^c.scale: 2·|c·b − q|, all over a common scale, is at most one unit of c's last decimal.
      const lhs = 2n * (c.units * b.units * 10n ** BigInt(q.scale + 10 - c.scale) - q.units * 10n ** BigInt(b.scale + 10));
      const unit = b.units * 10n ** BigInt(q.scale);
      expect(lhs > -unit && lhs <= unit).toBe(true);
    }),
    { numRuns: 1000 },
  );
});
