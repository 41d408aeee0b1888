import type { JsonSchema } from './route';

export const uuid: JsonSchema = { type: 'string', format: 'uuid' };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
export const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' };
export const minorUnits: JsonSchema = { type: 'integer', minimum: 0, maximum: 9007199254740991, description: 'Integer amount in minor units' };

/**
 * An id the supplier gave out (product, variant, order), which goes into the supplier's URL: letters, digits and
 * `. _ : ~ -`, starting with a letter or digit, so never a `.` or `..` segment, a slash or a control character.
 */
export const supplierRef: JsonSchema = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$' };

export function object(properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

export function params(names: string[]): JsonSchema {
  return object(Object.fromEntries(names.map((n) => [n, uuid])), names);
}

export const pageQuery: Record<string, JsonSchema> = {
  cursor: { type: 'string', maxLength: 512 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
};

export function pageOf(item: JsonSchema): JsonSchema {
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

export const errorBody: JsonSchema = object(
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

export const empty: JsonSchema = object({});
