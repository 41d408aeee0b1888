import { currency, dateTime, object } from '../platform/http/schemas';

// The rates domain's schemas: the operator's pins and look-ups of exchange rates.

const decimalRate = {
  type: 'string',
  pattern: '^[0-9]{1,12}(\\.[0-9]{1,12})?$',
  maxLength: 25,
  description: 'Units of the quote currency per unit of the base currency, a decimal string (never a float)',
} as const;
const day = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A day, YYYY-MM-DD' } as const;

export const pairParams = object({ base: currency, quote: currency }, ['base', 'quote']);
export const pinBody = object({ rate: decimalRate, reason: { type: 'string', minLength: 1, maxLength: 500 } }, ['rate', 'reason']);
export const rateQuery = object({ asOf: day });

export const pinSchema = object({ base: currency, quote: currency, rate: decimalRate, reason: { type: 'string' }, pinnedAt: dateTime }, [
  'base',
  'quote',
  'rate',
  'reason',
  'pinnedAt',
]);
export const unpinnedSchema = object({ base: currency, quote: currency, unpinned: { type: 'boolean' } }, ['base', 'quote', 'unpinned']);

/** A look-up's answer: a rate to use, or why there is none (`missing`, `stale`, `unknownCurrency`). */
export const rateAnswerSchema = object(
  {
    available: { type: 'boolean' },
    from: currency,
    to: currency,
    rate: decimalRate,
    source: { enum: ['ecb', 'pinned', 'identity'] },
    asOfDate: { type: ['string', 'null'] },
    fetchedAt: { type: ['string', 'null'], format: 'date-time' },
    reason: { enum: ['missing', 'stale', 'unknownCurrency'] },
  },
  ['available', 'from', 'to', 'asOfDate'],
);
