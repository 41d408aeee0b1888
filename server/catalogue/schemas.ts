import { currency, dateTime, minorUnits, nullableDateTime, object, supplierRef, uuid } from '../platform/http/schemas';
import { routingRuleSchema } from '../connections/schemas';
import { priceRuleSchema } from './price-rule';

export { priceRuleSchema };

export const syncSchema = object(
  {
    cost: { type: 'boolean', description: 'Keep the recorded supplier cost of each variant current' },
    price: { type: 'boolean', description: 'Re-price store variants from the cost through the price rule' },
    stock: { type: 'boolean', description: "Copy the supplier's stock to the store variants" },
    title: { type: 'boolean', description: "Copy the supplier's product title" },
    availability: { type: 'boolean', description: 'Set stock to 0 for variants the supplier no longer offers' },
  },
  [],
  { description: 'Sync switches: which fields the hourly sync may change' },
);

const supplierVariantSchema = object(
  {
    id: { type: 'string' },
    sku: { type: 'string' },
    title: { type: 'string' },
    options: { type: 'object', additionalProperties: { type: 'string' } },
    cost: object({ amountMinor: minorUnits, currency }, ['amountMinor', 'currency']),
    stock: { type: 'integer' },
    available: { type: 'boolean' },
  },
  ['id', 'sku', 'title', 'options', 'cost', 'stock', 'available'],
);

export const supplierProductSchema = object(
  {
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    url: { type: 'string' },
    imageUrl: { type: ['string', 'null'] },
    shipsTo: { type: 'array', items: { type: 'string' } },
    variants: { type: 'array', items: supplierVariantSchema },
    updatedAt: { type: ['string', 'null'] },
  },
  ['id', 'title', 'description', 'url', 'imageUrl', 'shipsTo', 'variants', 'updatedAt'],
);

export const supplierProductPageSchema = object(
  {
    items: { type: 'array', items: supplierProductSchema },
    pagination: object(
      {
        nextCursor: { type: ['string', 'null'] },
        previousCursor: { type: ['string', 'null'] },
        hasMore: { type: 'boolean' },
        totalCount: { type: ['integer', 'null'] },
        pageSize: { type: 'integer' },
      },
      ['nextCursor', 'previousCursor', 'hasMore', 'totalCount', 'pageSize'],
    ),
  },
  ['items', 'pagination'],
);

/** A variant's maximum buy price: per unit, in any currency (compared in the store's at the day's rate). */
export const maxBuyPriceSchema = {
  oneOf: [object({ amountMinor: minorUnits, currency }, ['amountMinor', 'currency']), { type: 'null' }],
  description:
    "The most the store pays the supplier for one unit of the variant; a part whose supplier cost is above it pauses costAboveLimit. Any currency: compared in the store's currency at the day's rate",
} as const;

export const variantMappingSchema = object({ storeVariantId: uuid, supplierVariantId: supplierRef, maxBuyPrice: maxBuyPriceSchema }, [
  'storeVariantId',
  'supplierVariantId',
]);

export const alternateInputSchema = object(
  { storeVariantId: uuid, connectionId: uuid, supplierProductId: supplierRef, supplierVariantId: supplierRef },
  ['storeVariantId', 'connectionId', 'supplierProductId', 'supplierVariantId'],
  {
    description:
      "A backup supplier variant for one store variant, on another live connection of the store; a store variant's alternates are tried in the order listed",
  },
);

export const alternatesBody = {
  type: 'array',
  items: alternateInputSchema,
  maxItems: 100,
  description:
    "Backup supplier variants (at most 5 per store variant), replacing the link's alternates; an empty list removes them. Each is checked: 422 alternateInvalid names each field that fails",
} as const;

const alternateSchema = object(
  {
    connectionId: uuid,
    supplierProductId: { type: 'string' },
    supplierVariantId: { type: 'string' },
    costMinor: minorUnits,
    currency,
    stock: { type: 'integer' },
    available: { type: 'boolean' },
  },
  ['connectionId', 'supplierProductId', 'supplierVariantId', 'costMinor', 'currency', 'stock', 'available'],
  { description: 'A backup supplier variant, with its cost and stock as last read (the hourly sync keeps them)' },
);

/** A link's own routing rule, or null for the store's (GET/PUT /api/store-suppliers/:storeId/routing). */
export const linkRoutingSchema = {
  oneOf: [...routingRuleSchema.oneOf, { type: 'null' }],
  description: `This link's own routing rule, overriding the store's; null: the store's rule. ${routingRuleSchema.description}`,
} as const;

/** The rate a supplier's costs are converted at into the store's currency, with its source and day. */
export const costRateSchema = {
  ...object(
    {
      from: currency,
      to: currency,
      rate: { type: 'string', description: 'Units of `to` per unit of `from`, a decimal string' },
      source: { enum: ['ecb', 'pinned', 'identity'] },
      asOfDate: { type: 'string', format: 'date' },
    },
    ['from', 'to', 'rate', 'source', 'asOfDate'],
  ),
  type: ['object', 'null'],
  description: "The rate the supplier's costs were last priced at into the store's currency; null when the supplier sells in it",
} as const;

export const linkSchema = object(
  {
    id: uuid,
    storeId: uuid,
    productId: uuid,
    connectionId: uuid,
    supplierKey: { type: 'string' },
    supplierProductId: { type: 'string' },
    variants: {
      type: 'array',
      items: object(
        {
          storeVariantId: uuid,
          supplierVariantId: { type: 'string' },
          costMinor: minorUnits,
          currency,
          stock: { type: 'integer' },
          available: { type: 'boolean' },
          maxBuyPrice: maxBuyPriceSchema,
          alternates: { type: 'array', items: alternateSchema },
        },
        ['storeVariantId', 'supplierVariantId', 'costMinor', 'currency', 'stock', 'available', 'maxBuyPrice', 'alternates'],
      ),
    },
    priceRule: priceRuleSchema,
    sync: syncSchema,
    routing: linkRoutingSchema,
    costRate: costRateSchema,
    lastSyncAt: nullableDateTime,
    lastSyncError: { type: ['string', 'null'] },
    createdByKeyId: { type: ['string', 'null'], format: 'uuid' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  [
    'id',
    'storeId',
    'productId',
    'connectionId',
    'supplierKey',
    'supplierProductId',
    'variants',
    'priceRule',
    'sync',
    'routing',
    'costRate',
    'lastSyncAt',
    'lastSyncError',
    'createdByKeyId',
    'createdAt',
    'updatedAt',
  ],
);

export const importItemSchema = object(
  { supplierProductId: supplierRef, variantIds: { type: 'array', items: supplierRef, maxItems: 100, uniqueItems: true } },
  ['supplierProductId'],
);

export const importFailureSchema = object({ supplierProductId: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } }, [
  'supplierProductId',
  'code',
  'message',
]);

const jobProgress = {
  id: uuid,
  connectionId: uuid,
  status: { enum: ['queued', 'running', 'completed', 'failed'] },
  total: { type: 'integer' },
  done: { type: 'integer' },
  failed: { type: 'integer' },
} as const;
const jobTimes = { createdAt: dateTime, updatedAt: dateTime, finishedAt: nullableDateTime } as const;

/** An import job in the list: its progress, without the per-product errors and products (read the job for those). */
export const importJobSummarySchema = object({ ...jobProgress, ...jobTimes }, [
  'id',
  'connectionId',
  'status',
  'total',
  'done',
  'failed',
  'createdAt',
  'updatedAt',
  'finishedAt',
]);

export const importJobSchema = object(
  { ...jobProgress, errors: { type: 'array', items: importFailureSchema }, createdProductIds: { type: 'array', items: uuid }, ...jobTimes },
  ['id', 'connectionId', 'status', 'total', 'done', 'failed', 'errors', 'createdProductIds', 'createdAt', 'updatedAt', 'finishedAt'],
);
