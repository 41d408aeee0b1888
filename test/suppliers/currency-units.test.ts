/**
 * ISO 4217's minor units wherever supplier amounts are read, written and shown: JPY has none, USD two, KWD three.
 * Property tests over the exact decimal text (no floating point), plus the cases a two-decimal reading got wrong.
 */
import fc from 'fast-check';
import { decimalToMinor, minorToDecimal, MoneyFormatError } from '../../server/suppliers/money';
import { isCurrency, minorUnitsOf, UnknownCurrencyError } from '../../server/platform/currencies';
import { formatMoney } from '../../server/platform/money';

const CASES = [
  ['JPY', 0],
  ['USD', 2],
  ['KWD', 3],
] as const;

describe.each(CASES)('%s (%i decimals)', (currency, digits) => {
  test("its minor units are ISO 4217's", () => {
    expect(minorUnitsOf(currency)).toBe(digits);
  });

  test('minor units -> decimal text -> minor units is the identity, and the text has exactly its decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (units) => {
        const text = minorToDecimal(units, currency);
        expect(text.includes('.') ? text.split('.')[1].length : 0).toBe(digits);
        expect(decimalToMinor(text, currency)).toBe(units);
      }),
      { numRuns: 500 },
    );
  });

  test('a JSON number reads as its shortest spelling, exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (units) => {
        const asNumber = Number(minorToDecimal(units, currency));
        expect(decimalToMinor(asNumber, currency)).toBe(units);
      }),
      { numRuns: 500 },
    );
  });

  test('one more decimal than it has rounds half up to its minor unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 0, max: 9 }), (units, extra) => {
        const text = minorToDecimal(units, currency);
        const longer = digits ? `${text}${extra}` : `${text}.${extra}`;
        expect(decimalToMinor(longer, currency)).toBe(units + (extra >= 5 ? 1 : 0));
      }),
      { numRuns: 500 },
    );
  });
});

test('the amounts a two-decimal reading got wrong', () => {
  expect(decimalToMinor('500', 'JPY')).toBe(500);
  expect(decimalToMinor(500, 'JPY')).toBe(500);
  expect(decimalToMinor('500.5', 'JPY')).toBe(501);
  expect(minorToDecimal(500, 'JPY')).toBe('500');
  expect(decimalToMinor('1.234', 'KWD')).toBe(1234);
  expect(decimalToMinor('1.2345', 'KWD')).toBe(1235);
  expect(minorToDecimal(1234, 'KWD')).toBe('1.234');
  expect(minorToDecimal(5, 'KWD')).toBe('0.005');
  expect(decimalToMinor('15.16 -- 15.17', 'USD')).toBe(1517);
  expect(decimalToMinor('1.5', 'CLF')).toBe(15000);
});

test('a code ISO 4217 does not list is refused, never read with a guessed number of decimals', () => {
  expect(isCurrency('XYZ')).toBe(false);
  expect(() => minorUnitsOf('XYZ')).toThrow(UnknownCurrencyError);
  expect(() => decimalToMinor('1.00', 'XYZ')).toThrow(MoneyFormatError);
  expect(() => minorToDecimal(100, 'usd')).toThrow(MoneyFormatError);
});

test("amounts are shown with their currency's own decimals", () => {
  expect(formatMoney(4916, 'USD')).toBe('$49.16');
  expect(formatMoney(500, 'JPY')).toBe('¥500');
  expect(formatMoney(1234, 'KWD').replace(/\s/g, ' ')).toBe('KWD 1.234');
  expect(formatMoney(-7172, 'USD')).toBe('-$71.72');
  expect(formatMoney(12, 'XYZ')).toBe('12 (minor units of XYZ)');
});
