/**
 * Unit tests for the pure price rule shared by import preview, import and sync. No server or database needed.
 */
import Ajv from 'ajv';
import {
  applyPriceRule,
  DEFAULT_PRICE_RULE,
  minorUnitsPerMajor,
  normalisePriceRule,
  PriceRuleError,
  priceRuleSchema,
  type PriceRule,
} from '../../server/catalogue/price-rule';

function rule(overrides: Partial<PriceRule> = {}): PriceRule {
  return { ...DEFAULT_PRICE_RULE, ...overrides };
}

function price(overrides: Partial<PriceRule>, cost: number, currency = 'USD'): number {
  return applyPriceRule(rule(overrides), cost, currency).priceMinor;
}

/** Asserts fn throws a PriceRuleError naming field (toThrow alone would accept any error). */
function expectRuleError(fn: () => unknown, field: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(PriceRuleError);
  expect((caught as PriceRuleError).field).toBe(field);
}

describe('applyPriceRule', () => {
  test('the default rule prices at cost', () => {
    expect(applyPriceRule(DEFAULT_PRICE_RULE, 1234, 'USD')).toEqual({
      costMinor: 1234,
      priceMinor: 1234,
      compareAtMinor: null,
      profitMinor: 0,
      floorApplied: false,
      currency: 'USD',
    });
  });

  test('a decimal multiplier is applied exactly', () => {
    expect(price({ multiplier: '2.5' }, 1234)).toBe(3085);
    expect(price({ multiplier: '1.0001' }, 10_000)).toBe(10_001);
    expect(price({ multiplier: '9999.9999' }, 10_000)).toBe(99_999_999);
    // Below 1 only pays off with a markup, since the price never drops under cost: 1000 × 0.5 + 700 = 1200.
    expect(price({ multiplier: '0.5', markupMinor: 700 }, 1000)).toBe(1200);
  });

  test('rounds half up to the nearest minor unit', () => {
    expect(price({ multiplier: '1.5' }, 333)).toBe(500); // 499.5
    expect(price({ multiplier: '1.4999' }, 333)).toBe(499); // 499.4667
    expect(price({ multiplier: '1.5' }, 1)).toBe(2); // 1.5
    expect(price({ multiplier: '1.4999' }, 1)).toBe(1);
    // 4000.5 exactly; a float product is 4000.4999… and would round down to 4000.
    expect(price({ multiplier: '1.3335' }, 3000)).toBe(4001);
  });

  test('markup is added after the multiplier, not multiplied', () => {
    const q = applyPriceRule(rule({ multiplier: '2', markupMinor: 250 }), 1000, 'USD');
    expect(q.priceMinor).toBe(2250);
    expect(q.profitMinor).toBe(1250);
  });

  test('ending 99 rounds up to the next x.99, leaving one already there', () => {
    expect(price({ endingMinor: 99 }, 1234)).toBe(1299);
    expect(price({ endingMinor: 99 }, 1299)).toBe(1299);
    expect(price({ endingMinor: 99 }, 1300)).toBe(1399);
    expect(price({ endingMinor: 99 }, 0)).toBe(99);
  });

  test('ending 0 rounds up to whole units', () => {
    expect(price({ endingMinor: 0 }, 1234)).toBe(1300);
    expect(price({ endingMinor: 0 }, 1200)).toBe(1200);
    expect(price({ endingMinor: 0 }, 1201)).toBe(1300);
  });

  test('an ending is applied after multiplier and markup', () => {
    // 1234 × 2.5 = 3085, + 20 = 3105 → 3195
    expect(price({ multiplier: '2.5', markupMinor: 20, endingMinor: 95 }, 1234)).toBe(3195);
  });

  test('zero cost', () => {
    expect(applyPriceRule(rule({ multiplier: '3' }), 0, 'USD')).toMatchObject({ priceMinor: 0, profitMinor: 0, floorApplied: false });
    expect(applyPriceRule(rule({ multiplier: '3', minimumProfitMinor: 500 }), 0, 'USD')).toMatchObject({
      priceMinor: 500,
      profitMinor: 500,
      floorApplied: true,
    });
    expect(applyPriceRule(rule({ multiplier: '3', minimumProfitMinor: 500, endingMinor: 99 }), 0, 'USD')).toMatchObject({
      priceMinor: 599,
      profitMinor: 599,
      floorApplied: true,
    });
  });

  test('a currency without minor units (JPY)', () => {
    expect(price({ multiplier: '1.3' }, 1500, 'JPY')).toBe(1950);
    expect(price({ multiplier: '1.3', endingMinor: 0 }, 1500, 'JPY')).toBe(1950);
    expect(price({ multiplier: '1.0001' }, 1500, 'JPY')).toBe(1500); // 1500.15
    expectRuleError(() => applyPriceRule(rule({ endingMinor: 99 }), 1500, 'JPY'), 'endingMinor');
    expectRuleError(() => applyPriceRule(rule({ endingMinor: 1 }), 1500, 'JPY'), 'endingMinor');
  });

  test('a three-decimal currency (KWD) takes endings out of 1000', () => {
    expect(price({ endingMinor: 990 }, 12_345, 'KWD')).toBe(12_990);
    expect(price({ endingMinor: 990 }, 12_990, 'KWD')).toBe(12_990);
    expect(price({ endingMinor: 990 }, 12_991, 'KWD')).toBe(13_990);
    expect(price({ endingMinor: 99 }, 12_345, 'KWD')).toBe(13_099);
  });

  test('an ending at or above the minor units per major unit is refused for that currency', () => {
    expectRuleError(() => applyPriceRule(rule({ endingMinor: 100 }), 1000, 'USD'), 'endingMinor');
    expect(price({ endingMinor: 100 }, 1000, 'KWD')).toBe(1100);
  });

  test('the floor holds when the rule prices below it, and the ending is applied again above it', () => {
    // 1000 × 0.5 = 500 → 599, below the floor 1000 → 1000 → 1099
    expect(applyPriceRule(rule({ multiplier: '0.5', endingMinor: 99 }), 1000, 'USD')).toMatchObject({
      priceMinor: 1099,
      profitMinor: 99,
      floorApplied: true,
    });
    // 1000 → 1099 with the ending, still below the floor 1250 → 1250 → 1299
    expect(applyPriceRule(rule({ minimumProfitMinor: 250, endingMinor: 99 }), 1000, 'USD')).toMatchObject({
      priceMinor: 1299,
      profitMinor: 299,
      floorApplied: true,
    });
    // Floor exactly on an ending: not pushed a further unit up.
    expect(price({ minimumProfitMinor: 299, endingMinor: 99 }, 1000)).toBe(1299);
  });

  test('the floor is not applied when the ending already clears it', () => {
    expect(applyPriceRule(rule({ minimumProfitMinor: 50, endingMinor: 99 }), 1000, 'USD')).toMatchObject({
      priceMinor: 1099,
      floorApplied: false,
    });
    expect(applyPriceRule(rule({ multiplier: '2', minimumProfitMinor: 1000 }), 1000, 'USD')).toMatchObject({
      priceMinor: 2000,
      floorApplied: false,
    });
  });

  test('compare-at without an ending', () => {
    // 3085 × 1.3 = 4010.5 → 4011
    expect(applyPriceRule(rule({ multiplier: '2.5', compareAtMultiplier: '1.3' }), 1234, 'USD')).toMatchObject({
      priceMinor: 3085,
      compareAtMinor: 4011,
    });
    expect(applyPriceRule(rule({ compareAtMultiplier: '1' }), 1234, 'USD').compareAtMinor).toBe(1234);
    expect(applyPriceRule(rule({ multiplier: '2.5' }), 1234, 'USD').compareAtMinor).toBeNull();
  });

  test('compare-at with an ending uses the final price and the same ending', () => {
    // 3085 → 3099; 3099 × 1.3 = 4028.7 → 4029 → 4099
    expect(applyPriceRule(rule({ multiplier: '2.5', compareAtMultiplier: '1.3', endingMinor: 99 }), 1234, 'USD')).toMatchObject({
      priceMinor: 3099,
      compareAtMinor: 4099,
    });
    // Compare-at is taken from the floored price: 1299 × 1.5 = 1948.5 → 1949 → 1999
    expect(applyPriceRule(rule({ minimumProfitMinor: 250, endingMinor: 99, compareAtMultiplier: '1.5' }), 1000, 'USD')).toMatchObject({
      priceMinor: 1299,
      compareAtMinor: 1999,
    });
  });

  test('large values stay exact', () => {
    expect(price({ multiplier: '1.0001' }, 9_000_000_000)).toBe(9_000_900_000);
    expect(price({ multiplier: '1.1111' }, 1_234_567_891_234)).toBe(1_371_728_383_950);
    expect(price({}, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(price({ multiplier: '1.9999' }, 4_503_599_627_370_495)).toBe(9_006_748_894_778_253);
  });

  test('a result beyond the safe integer range is refused rather than rounded', () => {
    expectRuleError(() => applyPriceRule(rule({ multiplier: '2' }), Number.MAX_SAFE_INTEGER, 'USD'), 'costMinor');
    expectRuleError(() => applyPriceRule(rule({ markupMinor: 1 }), Number.MAX_SAFE_INTEGER, 'USD'), 'costMinor');
  });

  test('the cost must be a non-negative safe integer', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expectRuleError(() => applyPriceRule(DEFAULT_PRICE_RULE, bad, 'USD'), 'costMinor');
    }
  });

  test('a malformed currency is refused', () => {
    expectRuleError(() => applyPriceRule(DEFAULT_PRICE_RULE, 100, 'usd'), 'currency');
    expectRuleError(() => applyPriceRule(DEFAULT_PRICE_RULE, 100, ''), 'currency');
  });

  test('an invalid rule passed straight to apply is refused', () => {
    expectRuleError(() => applyPriceRule(rule({ multiplier: '0' }), 100, 'USD'), 'multiplier');
    expectRuleError(() => applyPriceRule(rule({ compareAtMultiplier: '0.5' }), 100, 'USD'), 'compareAtMultiplier');
  });

  test('does not mutate the rule', () => {
    const r = rule({ multiplier: '2.5', endingMinor: 99, compareAtMultiplier: '1.3', minimumProfitMinor: 10 });
    const copy = { ...r };
    applyPriceRule(r, 1234, 'USD');
    expect(r).toEqual(copy);
  });
});

describe('minorUnitsPerMajor', () => {
  test.each(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'XAF', 'XOF', 'XPF', 'PYG', 'RWF', 'KMF', 'GNF', 'DJF', 'BIF', 'VUV'])('%s has none', (c) => {
    expect(minorUnitsPerMajor(c)).toBe(1);
  });
  test.each(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'])('%s has 1000', (c) => {
    expect(minorUnitsPerMajor(c)).toBe(1000);
  });
  test.each(['USD', 'EUR', 'GBP', 'CHF', 'ZZZ'])('%s has 100', (c) => {
    expect(minorUnitsPerMajor(c)).toBe(100);
  });
  test('refuses a malformed code', () => {
    expectRuleError(() => minorUnitsPerMajor('jpy'), 'currency');
    expectRuleError(() => minorUnitsPerMajor('US'), 'currency');
  });
});

describe('normalisePriceRule', () => {
  test('fills every default', () => {
    expect(normalisePriceRule(undefined)).toEqual({
      multiplier: '1',
      markupMinor: 0,
      endingMinor: null,
      compareAtMultiplier: null,
      minimumProfitMinor: 0,
    });
    expect(normalisePriceRule({})).toEqual(DEFAULT_PRICE_RULE);
    expect(normalisePriceRule({ endingMinor: 99 })).toEqual({ ...DEFAULT_PRICE_RULE, endingMinor: 99 });
  });

  test('keeps given values and drops unknown keys', () => {
    const full: PriceRule = { multiplier: '2.5', markupMinor: 100, endingMinor: 0, compareAtMultiplier: '1.3', minimumProfitMinor: 200 };
    expect(normalisePriceRule({ ...full, extra: true } as Partial<PriceRule>)).toEqual(full);
  });

  test('returns a fresh object, and the default cannot be changed', () => {
    const n = normalisePriceRule(undefined);
    expect(n).not.toBe(DEFAULT_PRICE_RULE);
    expect(Object.isFrozen(DEFAULT_PRICE_RULE)).toBe(true);
  });

  test.each(['0', '0.0', '0.0000', '-1', 'abc', '', '1.', '.5', '1.23456', '12345', '1e3', ' 1'])('refuses multiplier %j', (m) => {
    expectRuleError(() => normalisePriceRule({ multiplier: m }), 'multiplier');
  });

  test('refuses a null or non-string multiplier', () => {
    expectRuleError(() => normalisePriceRule({ multiplier: null } as unknown as Partial<PriceRule>), 'multiplier');
    expectRuleError(() => normalisePriceRule({ multiplier: 2 } as unknown as Partial<PriceRule>), 'multiplier');
  });

  test.each(['0.9', '0.9999', '0', 'abc', '-1.5'])('refuses compareAtMultiplier %j', (m) => {
    expectRuleError(() => normalisePriceRule({ compareAtMultiplier: m }), 'compareAtMultiplier');
  });

  test('accepts the smallest multipliers', () => {
    expect(normalisePriceRule({ multiplier: '0.0001', compareAtMultiplier: '1' })).toMatchObject({ multiplier: '0.0001', compareAtMultiplier: '1' });
  });

  test.each([
    ['markupMinor', -1],
    ['markupMinor', 1.5],
    ['markupMinor', 1_000_000_001],
    ['markupMinor', '5'],
    ['markupMinor', null],
    ['minimumProfitMinor', -1],
    ['minimumProfitMinor', 1_000_000_001],
    ['endingMinor', -1],
    ['endingMinor', 1000],
    ['endingMinor', 9.5],
  ])('refuses %s %j', (field, value) => {
    expectRuleError(() => normalisePriceRule({ [field]: value } as unknown as Partial<PriceRule>), field);
  });

  test('accepts the bounds of the integer fields', () => {
    expect(normalisePriceRule({ markupMinor: 1_000_000_000, minimumProfitMinor: 1_000_000_000, endingMinor: 999 })).toMatchObject({
      markupMinor: 1_000_000_000,
      minimumProfitMinor: 1_000_000_000,
      endingMinor: 999,
    });
  });
});

describe('priceRuleSchema', () => {
  const validate = new Ajv({ strict: false }).compile(priceRuleSchema);

  test('accepts a full rule and an empty one', () => {
    expect(validate({ multiplier: '2.5', markupMinor: 100, endingMinor: 99, compareAtMultiplier: '1.3', minimumProfitMinor: 200 })).toBe(true);
    expect(validate({ endingMinor: null, compareAtMultiplier: null })).toBe(true);
    expect(validate({})).toBe(true);
  });

  test('fills the same defaults as normalisePriceRule', () => {
    const withDefaults = new Ajv({ strict: false, useDefaults: true }).compile(priceRuleSchema);
    const body = {};
    expect(withDefaults(body)).toBe(true);
    expect(body).toEqual(DEFAULT_PRICE_RULE);
  });

  test('refuses unknown fields', () => {
    expect(validate({ multiplier: '2', currency: 'USD' })).toBe(false);
  });

  test.each(['abc', '-1', '1.23456', '12345', '1.', ''])('refuses the pattern %j', (m) => {
    expect(validate({ multiplier: m })).toBe(false);
    expect(validate({ compareAtMultiplier: m })).toBe(false);
  });

  test.each([
    { markupMinor: 1.5 },
    { markupMinor: -1 },
    { markupMinor: 1_000_000_001 },
    { minimumProfitMinor: -1 },
    { endingMinor: 1000 },
    { endingMinor: '99' },
    { multiplier: null },
    { multiplier: 2 },
  ])('refuses %j', (body) => {
    expect(validate(body)).toBe(false);
  });

  test('leaves "0" to normalisePriceRule, which a pattern cannot refuse', () => {
    expect(validate({ multiplier: '0' })).toBe(true);
    expectRuleError(() => normalisePriceRule({ multiplier: '0' }), 'multiplier');
  });
});

describe('invariants over seeded pseudo-random rules', () => {
  // mulberry32: small, deterministic, so a failure reproduces.
  function generator(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  test('2,000 cases', () => {
    const random = generator(20240601);
    const int = (max: number): number => Math.floor(random() * (max + 1));
    const decimal = (minWhole: number, maxWhole: number): string => {
      const whole = minWhole + int(maxWhole - minWhole);
      const places = int(4);
      return places === 0 ? String(whole) : `${whole}.${String(int(10 ** places - 1)).padStart(places, '0')}`;
    };
    const currencies = ['USD', 'EUR', 'JPY', 'KWD', 'BHD', 'CLP'];
    let floors = 0;
    let checked = 0;

    for (let i = 0; i < 2000; i++) {
      const currency = currencies[int(currencies.length - 1)];
      const perMajor = minorUnitsPerMajor(currency);
      let multiplier = decimal(0, int(1) === 0 ? 3 : 20);
      if (/^0(\.0*)?$/.test(multiplier)) multiplier = '1';
      const r = normalisePriceRule({
        multiplier,
        markupMinor: int(3) === 0 ? int(5000) : 0,
        endingMinor: int(2) === 0 ? null : int(perMajor - 1),
        compareAtMultiplier: int(1) === 0 ? null : decimal(1, 3),
        minimumProfitMinor: int(1) === 0 ? int(20_000) : 0,
      });
      const cost = int(3) === 0 ? int(100) : int(50_000_000);
      const q = applyPriceRule(r, cost, currency);

      expect(Number.isSafeInteger(q.priceMinor)).toBe(true);
      expect(Number.isSafeInteger(q.profitMinor)).toBe(true);
      expect(q.priceMinor).toBeGreaterThanOrEqual(cost + r.minimumProfitMinor);
      expect(q.profitMinor).toBe(q.priceMinor - cost);
      if (r.endingMinor !== null) expect(q.priceMinor % perMajor).toBe(r.endingMinor);
      if (r.compareAtMultiplier === null) {
        expect(q.compareAtMinor).toBeNull();
      } else {
        expect(Number.isSafeInteger(q.compareAtMinor)).toBe(true);
        expect(q.compareAtMinor).toBeGreaterThanOrEqual(q.priceMinor);
        if (r.endingMinor !== null) expect((q.compareAtMinor as number) % perMajor).toBe(r.endingMinor);
      }

      // Independent oracle: the least price with the ending that is ≥ max(raw, floor), found by stepping.
      const [whole, frac = ''] = r.multiplier.split('.');
      const exact2 = 2n * BigInt(cost) * BigInt(whole + frac.padEnd(4, '0')); // twice cost × multiplier × 10^4
      const raw = Number((exact2 + 10_000n) / 20_000n) + r.markupMinor;
      const floor = cost + r.minimumProfitMinor;
      const upToEnding = (n: number): number => {
        while (r.endingMinor !== null && n % perMajor !== r.endingMinor) n++;
        return n;
      };
      expect(q.priceMinor).toBe(upToEnding(Math.max(raw, floor)));
      expect(q.floorApplied).toBe(upToEnding(raw) < floor);
      if (q.floorApplied) floors++;
      checked++;
    }

    expect(checked).toBe(2000);
    // The generator must actually exercise the floor, or the floor invariant proves little.
    expect(floors).toBeGreaterThan(100);
  });
});
