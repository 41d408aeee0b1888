/**
 * Store price from supplier cost: the single implementation shared by import preview, import and the hourly sync,
 * so the three can never disagree about a price.
 *
 * Order (all integer minor units, BigInt internally so no float drift and no overflow before the final range check):
 *   1. raw      = roundHalfUp(cost × multiplier) + markupMinor
 *   2. price    = raw rounded UP to the ending (if any)
 *   3. floor    = cost + minimumProfitMinor; if price < floor: price = floor rounded UP to the ending (floorApplied)
 *   4. compareAt = roundHalfUp(price × compareAtMultiplier) rounded UP to the ending, or null
 *   5. profit   = price − cost
 * Steps 2–3 amount to "the least price with the ending that is ≥ max(raw, floor)": rounding only ever goes up,
 * so it can never take the price below the floor.
 */

export interface PriceRule {
  /** Multiplies the cost, as a decimal string with up to 4 decimals, e.g. "2.5" (default "1"). */
  multiplier: string;
  /** Added after the multiplier, in minor units of the store currency (default 0). */
  markupMinor: number;
  /** Round up to a price ending, in minor units within one major unit, e.g. 99 → x.99; null = no rounding. */
  endingMinor: number | null;
  /** Compare-at price as a multiple of the final price (decimal string, e.g. "1.3"), or null for none. */
  compareAtMultiplier: string | null;
  /** The price never falls below cost + this minimum profit (minor units, default 0). */
  minimumProfitMinor: number;
}

interface PriceQuote {
  costMinor: number;
  priceMinor: number;
  compareAtMinor: number | null;
  profitMinor: number;
  floorApplied: boolean;
  currency: string;
}

export class PriceRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'PriceRuleError';
  }
}

export const DEFAULT_PRICE_RULE: PriceRule = Object.freeze({
  multiplier: '1',
  markupMinor: 0,
  endingMinor: null,
  compareAtMultiplier: null,
  minimumProfitMinor: 0,
});

/**
 * The rule for a request that gives none (import, preview, a new link): twice the cost, rounded up to x.99.
 * Not the field defaults above (which would sell at cost): see docs/decisions.md, "Price rule when none is given".
 */
export const DEFAULT_IMPORT_PRICE_RULE: PriceRule = Object.freeze({ ...DEFAULT_PRICE_RULE, multiplier: '2', endingMinor: 99 });

/** The default rule for a store's currency: its ending is .99 of a major unit (990 in KWD), none in JPY (no minor unit). */
export function importRuleFor(rule: PriceRule, currency: string): PriceRule {
  if (rule !== DEFAULT_IMPORT_PRICE_RULE) return rule;
  const perMajor = minorUnitsPerMajor(currency);
  return { ...rule, endingMinor: perMajor === 1 ? null : (perMajor * 99) / 100 };
}

const DECIMAL_PATTERN = '^\\d{1,4}(\\.\\d{1,4})?$';
const DECIMAL_RE = new RegExp(DECIMAL_PATTERN);
const MAX_AMOUNT = 1_000_000_000;
// Largest minor-units-per-major in the table below (3-decimal currencies); the true limit depends on the currency.
const MAX_ENDING = 999;
const SCALE = 10_000n;

export const priceRuleSchema = {
  type: 'object',
  description:
    'How a store price is worked out from the supplier cost (all amounts in minor units of the store currency). Without a priceRule the default import rule applies: multiplier "2", endingMinor 99 (twice the cost, rounded up to x.99); a rule that is given takes the field defaults below for fields it leaves out.',
  properties: {
    multiplier: {
      type: 'string',
      pattern: DECIMAL_PATTERN,
      default: DEFAULT_PRICE_RULE.multiplier,
      description: 'Multiplies the cost; decimal string with up to 4 decimals, greater than 0, e.g. "2.5".',
    },
    markupMinor: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_AMOUNT,
      default: DEFAULT_PRICE_RULE.markupMinor,
      description: 'Added after the multiplier.',
    },
    endingMinor: {
      type: ['integer', 'null'],
      minimum: 0,
      maximum: MAX_ENDING,
      default: DEFAULT_PRICE_RULE.endingMinor,
      description:
        'Round up to a price ending within one major unit (99 → x.99); must be below the minor units per major unit of the currency (0 or null for currencies without minor units); null = no rounding.',
    },
    compareAtMultiplier: {
      type: ['string', 'null'],
      pattern: DECIMAL_PATTERN,
      default: DEFAULT_PRICE_RULE.compareAtMultiplier,
      description: 'Compare-at price as a multiple (at least 1) of the final price, e.g. "1.3"; null = none.',
    },
    minimumProfitMinor: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_AMOUNT,
      default: DEFAULT_PRICE_RULE.minimumProfitMinor,
      description: 'The price never falls below cost plus this amount.',
    },
  },
  additionalProperties: false,
} as const;

/** Decimal string → integer ten-thousandths, exactly (a float would drift). */
function parseDecimal(field: string, value: unknown): bigint {
  if (typeof value !== 'string' || !DECIMAL_RE.test(value)) {
    throw new PriceRuleError(field, `${field} must be a decimal string with up to 4 digits before and after the point`);
  }
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(4, '0'));
}

function checkAmount(field: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new PriceRuleError(field, `${field} must be an integer from 0 to ${max}`);
  }
  return value;
}

/**
 * Fills defaults and rejects what a JSON Schema cannot express. Also re-checks what the schema does check,
 * because stored rules and internal callers never pass through ajv. Unknown keys are dropped, not refused,
 * so a rule stored by an older version still prices during sync.
 */
export function normalisePriceRule(input: Partial<PriceRule> | undefined): PriceRule {
  const src = input ?? {};
  if (typeof src !== 'object' || src === null || Array.isArray(src)) {
    throw new PriceRuleError('rule', 'price rule must be an object');
  }
  // Only undefined means "use the default": an explicit null is refused where null is not a valid value.
  const pick = <K extends keyof PriceRule>(key: K): PriceRule[K] => (src[key] === undefined ? DEFAULT_PRICE_RULE[key] : (src[key] as PriceRule[K]));
  const multiplier = pick('multiplier');
  if (parseDecimal('multiplier', multiplier) <= 0n) {
    throw new PriceRuleError('multiplier', 'multiplier must be greater than 0');
  }
  const compareAtMultiplier = pick('compareAtMultiplier');
  // Below 1 the compare-at price would undercut the price it is meant to be compared with.
  if (compareAtMultiplier !== null && parseDecimal('compareAtMultiplier', compareAtMultiplier) < SCALE) {
    throw new PriceRuleError('compareAtMultiplier', 'compareAtMultiplier must be at least 1');
  }
  const endingMinor = pick('endingMinor');
  return {
    multiplier,
    markupMinor: checkAmount('markupMinor', pick('markupMinor'), MAX_AMOUNT),
    endingMinor: endingMinor === null ? null : checkAmount('endingMinor', endingMinor, MAX_ENDING),
    compareAtMultiplier,
    minimumProfitMinor: checkAmount('minimumProfitMinor', pick('minimumProfitMinor'), MAX_AMOUNT),
  };
}

const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'XAF', 'XOF', 'XPF', 'PYG', 'RWF', 'KMF', 'GNF', 'DJF', 'BIF', 'VUV']);
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** ISO 4217 exponent as a factor. Unknown codes default to 100, but malformed ones throw rather than price silently. */
export function minorUnitsPerMajor(currency: string): number {
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    throw new PriceRuleError('currency', 'currency must be an upper-case ISO 4217 code');
  }
  if (ZERO_DECIMAL.has(currency)) return 1;
  if (THREE_DECIMAL.has(currency)) return 1000;
  return 100;
}

/** Least value ≥ amount whose remainder modulo perMajor is ending (inputs are non-negative). */
function roundUpToEnding(amount: bigint, ending: bigint | null, perMajor: bigint): bigint {
  if (ending === null) return amount;
  const remainder = amount % perMajor;
  return remainder <= ending ? amount + (ending - remainder) : amount + (perMajor - remainder) + ending;
}

/** amount × (scaled / 10^4), half up; everything is non-negative so floor division is safe. */
function multiplyHalfUp(amount: bigint, scaled: bigint): bigint {
  return (amount * scaled + SCALE / 2n) / SCALE;
}

function toSafe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new PriceRuleError('costMinor', 'the resulting price is too large to represent exactly');
  }
  return Number(value);
}

export function applyPriceRule(rule: PriceRule, costMinor: number, currency: string): PriceQuote {
  if (typeof costMinor !== 'number' || !Number.isSafeInteger(costMinor) || costMinor < 0) {
    throw new PriceRuleError('costMinor', 'costMinor must be a non-negative safe integer');
  }
  // Re-validated here because callers may hand over a rule straight from storage.
  const r = normalisePriceRule(rule);
  const perMajor = minorUnitsPerMajor(currency);
  if (r.endingMinor !== null && r.endingMinor >= perMajor) {
    throw new PriceRuleError(
      'endingMinor',
      perMajor === 1 ? `${currency} has no minor unit, so endingMinor must be 0 or null` : `endingMinor must be below ${perMajor} for ${currency}`,
    );
  }

  const per = BigInt(perMajor);
  const ending = r.endingMinor === null ? null : BigInt(r.endingMinor);
  const cost = BigInt(costMinor);
  const raw = multiplyHalfUp(cost, parseDecimal('multiplier', r.multiplier)) + BigInt(r.markupMinor);
  let price = roundUpToEnding(raw, ending, per);
  const floor = cost + BigInt(r.minimumProfitMinor);
  const floorApplied = price < floor;
  if (floorApplied) price = roundUpToEnding(floor, ending, per);
  const compareAt =
    r.compareAtMultiplier === null ? null : roundUpToEnding(multiplyHalfUp(price, parseDecimal('compareAtMultiplier', r.compareAtMultiplier)), ending, per);

  return {
    costMinor,
    priceMinor: toSafe(price),
    compareAtMinor: compareAt === null ? null : toSafe(compareAt),
    profitMinor: toSafe(price - cost),
    floorApplied,
    currency,
  };
}
