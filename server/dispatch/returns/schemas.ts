import { RETURN_REASONS, RETURN_REFUND_STATUSES } from '../../platform/vocabulary/returns';
import { currency, dateTime, minorUnits, nullableDateTime, object, uuid } from '../../platform/http/schemas';

const actor = object({ kind: { enum: ['key', 'user', 'system', 'supplier'] }, id: { type: ['string', 'null'] } }, ['kind', 'id']);
const signed = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } as const;

const refundSchema = object(
  {
    amountMinor: { ...minorUnits, minimum: 1 },
    currency,
    status: {
      enum: [...RETURN_REFUND_STATUSES],
      description:
        "`sending`: recorded under the return's key, the provider's answer not had yet (ask again with .../refund: the same key, refunded once); `requested`: the provider took it (the order shows it once its signed event arrives); `refused`: `message` says why",
    },
    idempotencyKey: { type: 'string', description: 'The Idempotency-Key the payment provider is asked under, every time' },
    paymentReference: { type: ['string', 'null'] },
    message: { type: ['string', 'null'] },
    requestedAt: nullableDateTime,
  },
  ['amountMinor', 'currency', 'status', 'idempotencyKey', 'paymentReference', 'message', 'requestedAt'],
);

export const returnSchema = object(
  {
    _id: uuid,
    storeId: uuid,
    supplierOrderId: uuid,
    orderId: uuid,
    reason: { enum: [...RETURN_REASONS] },
    note: { type: 'string' },
    items: {
      type: 'array',
      items: object({ itemId: uuid, sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1, description: 'How many the shopper sent back' } }, [
        'itemId',
        'sku',
        'quantity',
      ]),
    },
    claimId: { type: ['string', 'null'], format: 'uuid', description: 'The claim with the supplier this return goes with' },
    refund: { oneOf: [refundSchema, { type: 'null' }], description: "The shopper's refund through the payment provider; null: not refunded" },
    money: object(
      {
        currency,
        refundMinor: { ...minorUnits, description: 'Refunded to the shopper (0 when not, or refused)' },
        supplierCreditMinor: {
          type: ['integer', 'null'],
          minimum: 0,
          description: "The supplier's credit on the claim, in this currency at its recorded rate (null: none yet, or in another currency)",
        },
        netMinor: { ...signed, description: 'The credit less the refund: what the return gains (or, below zero, costs) the store' },
      },
      ['currency', 'refundMinor', 'supplierCreditMinor', 'netMinor'],
    ),
    createdBy: actor,
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  ['_id', 'storeId', 'supplierOrderId', 'orderId', 'reason', 'note', 'items', 'claimId', 'refund', 'money', 'createdBy', 'createdAt', 'updatedAt'],
);

export const createReturnBody = object(
  {
    reason: { enum: [...RETURN_REASONS] },
    note: { type: 'string', maxLength: 1000, description: "What happened, in the store's words" },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: object({ itemId: uuid, quantity: { type: 'integer', minimum: 1, maximum: 100000, description: 'How many the shopper sends back' } }, [
        'itemId',
        'quantity',
      ]),
      description: "The store order's items (of this supplier order's part) and how many of each: at most what was sent less what earlier returns hold",
    },
    claimId: { ...uuid, description: 'The claim with the supplier on this supplier order that this return goes with' },
    refund: object(
      {
        amountMinor: { ...minorUnits, minimum: 1, description: "How much to refund the shopper, in minor units of the order's currency" },
        currency: { ...currency, description: "Optional: the order's currency (another is refused)" },
      },
      ['amountMinor'],
      { description: "Refund the shopper through the store's payment provider (needs payments.manage too): at most what is left of the order's payment" },
    ),
  },
  ['reason', 'items'],
);
