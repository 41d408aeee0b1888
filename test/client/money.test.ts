/**
 * The client's money helpers (client/src/money.ts), built: ISO 4217's minor units from the service's own table,
 * decimal text both ways without floating point, and no sum or comparison across two currencies.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import * as client from '../../client/dist/cjs';
import { currencyTable, minorUnitsOf } from '../../server/platform/currencies';
import { decimalToMinor, minorToDecimal } from '../../server/suppliers/money';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { emitCurrenciesTs, emitCurrenciesCs } = require('../../client/scripts/currencies.cjs') as {
  emitCurrenciesTs(table?: Array<[string, number]>): string;
  emitCurrenciesCs(table?: Array<[string, number]>): string;
};
const root = path.resolve(__dirname, '../..');
const {
  addMoney,
  compareMoney,
  currencyExponent,
  currencyExponents,
  CurrencyMismatchError,
  formatMinor,
  formatMoney,
  isCurrency,
  MoneyFormatError,
  parseMinor,
  parseMoney,
  subtractMoney,
  sumMoney,
  UnknownCurrencyError,
  StoreSuppliersError,
} = client;

test("the client's table is the service's, code for code (run `npm run generate:client` / `generate:dotnet` if not)", () => {
  const server = currencyTable();
  expect(server.length).toBeGreaterThan(150);
  expect(Object.entries(currencyExponents()).sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(server);
  for (const [code, digits] of server) expect(currencyExponent(code)).toBe(minorUnitsOf(code));
  expect(fs.readFileSync(path.join(root, 'client/src/generated/currencies.ts'), 'utf8')).toBe(emitCurrenciesTs(server));
  expect(fs.readFileSync(path.join(root, 'dotnet/src/StoreSuppliers.Client/Generated/Currencies.g.cs'), 'utf8')).toBe(emitCurrenciesCs(server));
});

test('a changed table changes both generated copies, so drift cannot pass unseen', () => {
  const changed = currencyTable().map(([c, d]): [string, number] => [c, c === 'ISK' ? 2 : d]);
  expect(emitCurrenciesTs(changed)).not.toBe(emitCurrenciesTs());
  expect(emitCurrenciesTs(changed)).toContain('ISK: 2,');
  expect(emitCurrenciesCs(changed)).toContain('["ISK"] = 2,');
});

const CASES = [
  ['JPY', 0],
  ['USD', 2],
  ['KWD', 3],
] as const;

describe.each(CASES)('%s (%i decimals)', (currency, digits) => {
  test("its exponent is ISO 4217's", () => {
    expect(currencyExponent(currency)).toBe(digits);
    expect(isCurrency(currency)).toBe(true);
  });

  test('minor units -> text -> minor units is the identity, with exactly its decimals, as the service writes it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (units) => {
        const text = formatMinor(units, currency);
        expect(text.includes('.') ? text.split('.')[1].length : 0).toBe(digits);
        expect(parseMinor(text, currency)).toBe(units);
        expect(parseMoney(formatMoney({ amountMinor: units, currency }).slice(4), currency)).toEqual({ amountMinor: units, currency });
        if (units >= 0) {
          expect(text).toBe(minorToDecimal(units, currency));
          expect(decimalToMinor(text, currency)).toBe(units);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('one more decimal rounds half up, as the service reads it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 0, max: 9 }), (units, extra) => {
        const text = formatMinor(units, currency);
        const longer = digits ? `${text}${extra}` : `${text}.${extra}`;
        expect(parseMinor(longer, currency)).toBe(decimalToMinor(longer, currency));
        expect(parseMinor(longer, currency)).toBe(units + (extra >= 5 ? 1 : 0));
        expect(parseMinor(`-${longer}`, currency)).toBe(units + (extra >= 5 ? 1 : 0) ? -(units + (extra >= 5 ? 1 : 0)) : 0);
      }),
      { numRuns: 500 },
    );
  });

  test('sums and comparisons in one currency are those of the integers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), { maxLength: 20 }), (amounts) => {
        const money = amounts.map((amountMinor) => ({ amountMinor, currency }));
        expect(sumMoney(money, currency)).toEqual({ amountMinor: amounts.reduce((a, b) => a + b, 0), currency });
        if (amounts.length >= 2) {
          expect(compareMoney(money[0], money[1])).toBe(Math.sign(amounts[0] - amounts[1]));
          expect(subtractMoney(money[0], money[1]).amountMinor).toBe(amounts[0] - amounts[1]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

test('fixed cases', () => {
  expect(formatMinor(1234, 'KWD')).toBe('1.234');
  expect(formatMinor(1234, 'JPY')).toBe('1234');
  expect(formatMinor(1234, 'USD')).toBe('12.34');
  expect(formatMinor(5, 'KWD')).toBe('0.005');
  expect(formatMinor(-5, 'USD')).toBe('-0.05');
  expect(formatMinor(15000, 'CLF')).toBe('1.5000');
  expect(formatMoney({ amountMinor: 1234, currency: 'KWD' })).toBe('KWD 1.234');
  expect(formatMoney({ amountMinor: 1234, currency: 'JPY' })).toBe('JPY 1234');
  expect(parseMinor('1.234', 'KWD')).toBe(1234);
  expect(parseMinor('1234', 'JPY')).toBe(1234);
  expect(parseMinor('12.34', 'USD')).toBe(1234);
  expect(parseMinor(' 12.3 ', 'USD')).toBe(1230);
  expect(parseMinor('12', 'USD')).toBe(1200);
  expect(parseMinor('0.295', 'USD')).toBe(30);
  expect(parseMinor('0.294', 'USD')).toBe(29);
  expect(parseMinor('500.5', 'JPY')).toBe(501);
  expect(parseMinor('-0.001', 'USD')).toBe(0);
  expect(Object.is(parseMinor('-0.00', 'USD'), 0)).toBe(true);
  expect(parseMinor('90071992547409.91', 'USD')).toBe(Number.MAX_SAFE_INTEGER);
  // What floating point gets wrong: 1.005 * 100 is 100.49999999999999.
  expect(parseMinor('1.005', 'USD')).toBe(101);
  expect(addMoney({ amountMinor: 1999, currency: 'USD' }, { amountMinor: 1, currency: 'USD' })).toEqual({ amountMinor: 2000, currency: 'USD' });
  expect(sumMoney([], 'JPY')).toEqual({ amountMinor: 0, currency: 'JPY' });
  expect(compareMoney({ amountMinor: 500, currency: 'JPY' }, { amountMinor: 500, currency: 'JPY' })).toBe(0);
});

test('two currencies are never summed or compared, whatever the numbers', () => {
  const usd = { amountMinor: 100, currency: 'USD' };
  const eur = { amountMinor: 100, currency: 'EUR' };
  for (const act of [
    () => addMoney(usd, eur),
    () => subtractMoney(usd, eur),
    () => compareMoney(usd, eur),
    () => sumMoney([usd, eur], 'USD'),
    () => sumMoney([usd], 'EUR'),
  ]) {
    expect(act).toThrow(CurrencyMismatchError);
    expect(act).toThrow(StoreSuppliersError);
  }
  try {
    compareMoney(usd, eur);
  } catch (err) {
    expect((err as InstanceType<typeof CurrencyMismatchError>).currencies).toEqual(['USD', 'EUR']);
  }
});

test('an unknown code, text that is not an amount and amounts past a safe integer are refused', () => {
  expect(isCurrency('XYZ')).toBe(false);
  expect(isCurrency('usd')).toBe(false);
  expect(isCurrency('toString')).toBe(false);
  expect(() => currencyExponent('XYZ')).toThrow(UnknownCurrencyError);
  expect(() => formatMinor(100, 'usd')).toThrow(UnknownCurrencyError);
  expect(() => parseMinor('1.00', 'XYZ')).toThrow(UnknownCurrencyError);
  expect(() => sumMoney([], 'XYZ')).toThrow(UnknownCurrencyError);
  expect(() => addMoney({ amountMinor: 1, currency: 'XYZ' }, { amountMinor: 1, currency: 'XYZ' })).toThrow(UnknownCurrencyError);
  for (const bad of ['', '.', '-', '1,234', '12.3.4', '1e3', 'abc', '$12', '15.16 -- 15.17', '1'.repeat(101)])
    expect(() => parseMinor(bad, 'USD')).toThrow(MoneyFormatError);
  expect(() => parseMinor('90071992547409.92', 'USD')).toThrow(MoneyFormatError);
  expect(() => formatMinor(1.5, 'USD')).toThrow(MoneyFormatError);
  expect(() => formatMinor(Number.MAX_SAFE_INTEGER + 1, 'USD')).toThrow(MoneyFormatError);
  expect(() => addMoney({ amountMinor: Number.MAX_SAFE_INTEGER, currency: 'USD' }, { amountMinor: 1, currency: 'USD' })).toThrow(MoneyFormatError);
});
