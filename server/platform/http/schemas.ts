import type { JSONSchema } from 'json-schema-to-ts';

// Schemas are literal (`as const`, or built by the generic helpers below) so a route's handler can take its
// input types from them (see `route()` in ./route).

export const uuid = { type: 'string', format: 'uuid' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;
/**
 * A day as an input, YYYY-MM-DD: a real calendar day (format date: no 2026-02-30) within the years Postgres takes
 * (0001 to 9999; it has no year 0), so a bad day is a 400 naming the field, never a 500 from the database.
 */
export const calendarDay = {
  type: 'string',
  format: 'date',
  // No lookahead: the year 0000 is left out by its digits (generators of inputs from patterns, like the fuzz test's, read no lookahead).
  pattern: '^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-[0-9]{2}-[0-9]{2}$',
  description: 'A day, YYYY-MM-DD (years 0001 to 9999)',
} as const;
export const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
export const currency = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' } as const;
export const minorUnits = { type: 'integer', minimum: 0, maximum: 9007199254740991, description: 'Integer amount in minor units' } as const;

/**
 * An id the supplier gave out (product, variant, order), which goes into the supplier's URL: letters, digits and
 * `. _ : ~ -`, starting with a letter or digit, so never a `.` or `..` segment, a slash or a control character.
 */
export const supplierRef = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$' } as const;

/** A closed object: only the named properties, `required` among them. */
export function object<const P extends Record<string, JSONSchema>, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
  extra?: { minProperties?: number; description?: string },
): { type: 'object'; properties: P; required: NoInfer<R>; additionalProperties: false } {
  // Without `required`, R is its default `[]`, which the type system does not tie to the missing argument.
  return { type: 'object', properties, required: (required ?? []) as R, additionalProperties: false, ...extra };
}

/** Path parameters, each a uuid. */
export function params<const N extends readonly string[]>(names: N) {
  return object(Object.fromEntries(names.map((n) => [n, uuid])) as { [K in N[number]]: typeof uuid }, names as N & readonly (N[number] & string)[]);
}

export const pageQuery = {
  cursor: { type: 'string', maxLength: 512 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
} as const;

export function pageOf(item: JSONSchema) {
  return object(
    {
      items: { type: 'array', items: item },
      pagination: object(
        {
          nextCursor: { type: ['string', 'null'] },
          previousCursor: { type: ['string', 'null'] },
          hasMore: { type: 'boolean' },
          totalCount: { type: 'integer', minimum: 0 },
          pageSize: { type: 'integer', minimum: 1 },
        },
        ['nextCursor', 'previousCursor', 'hasMore', 'totalCount', 'pageSize'],
      ),
    },
    ['items', 'pagination'],
  );
}

export const errorBody = object(
  {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'object' } },
        requestId: { type: 'string' },
      },
      required: ['code', 'message'],
    },
  },
  ['error'],
);

/** The shopper's delivery address (the supplier contract's `Destination`), as store orders take it and supplier orders show it. */
export const destinationSchema = object(
  {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    line1: { type: 'string', minLength: 1, maxLength: 300 },
    line2: { type: 'string', maxLength: 300 },
    city: { type: 'string', minLength: 1, maxLength: 200 },
    region: { type: 'string', maxLength: 200 },
    postalCode: { type: 'string', minLength: 1, maxLength: 40 },
    country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' },
    phone: { type: 'string', maxLength: 50 },
    email: { type: 'string', format: 'email', maxLength: 254 },
  },
  ['name', 'line1', 'city', 'postalCode', 'country'],
);
