import { PERMISSIONS } from '../identity/permissions';
import { currency, dateTime, minorUnits, object, uuid } from '../platform/http/schemas';

// The stores domain's schemas: what its routes take and answer. The store product is the stores domain's
// resource; other domains' answers that carry products use productSchema from here.

export const storeSchema = object({ id: uuid, name: { type: 'string' }, currency, ownerAccountId: uuid, createdAt: dateTime }, [
  'id',
  'name',
  'currency',
  'ownerAccountId',
  'createdAt',
]);
export const permission = { enum: PERMISSIONS } as const;
export const staffSchema = object({ accountId: uuid, permissions: { type: 'array', items: permission }, createdAt: dateTime }, [
  'accountId',
  'permissions',
  'createdAt',
]);

const variantIn = object(
  {
    id: uuid,
    sku: { type: 'string', minLength: 1, maxLength: 100 },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    priceMinor: minorUnits,
    currency,
    stock: { type: 'integer', minimum: 0, maximum: 100000000 },
  },
  ['sku', 'title', 'priceMinor', 'currency', 'stock'],
);
export const productStatus = { enum: ['active', 'draft', 'archived'] } as const;
export const productSchema = object(
  {
    id: uuid,
    storeId: uuid,
    title: { type: 'string' },
    description: { type: 'string' },
    status: productStatus,
    variants: {
      type: 'array',
      items: object({ id: uuid, sku: { type: 'string' }, title: { type: 'string' }, priceMinor: minorUnits, currency, stock: { type: 'integer' } }, [
        'id',
        'sku',
        'title',
        'priceMinor',
        'currency',
        'stock',
      ]),
    },
    createdByKeyId: { type: ['string', 'null'], format: 'uuid' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  ['id', 'storeId', 'title', 'description', 'status', 'variants', 'createdByKeyId', 'createdAt', 'updatedAt'],
);
export const productFields = {
  title: { type: 'string', minLength: 1, maxLength: 300 },
  description: { type: 'string', maxLength: 20000 },
  status: productStatus,
  variants: { type: 'array', minItems: 1, maxItems: 100, items: variantIn },
} as const;
