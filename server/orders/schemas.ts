import { currency, dateTime, destinationSchema, minorUnits, object, params, uuid } from '../platform/http/schemas';
import type { JsonSchema } from '../platform/http/route';
import { PART_STATUSES, STORE_ORDER_STATUSES } from '../platform/vocabulary/statuses';
import { PAYMENT_ATTENTION_REASONS } from './types';

// The orders domain's schemas: what its routes take and answer.

export const orderParams = params(['storeId', 'orderId']);
export const partParams = object({ storeId: uuid, orderId: uuid, groupKey: { type: 'string', pattern: '^(store|supplier:[0-9a-fA-F-]{36})$' } }, [
  'storeId',
  'orderId',
  'groupKey',
]);

const partSchema = object(
  {
    groupKey: { type: 'string', description: "`store` for the store's own items, `supplier:<connectionId>` for each supplier" },
    connectionId: { type: ['string', 'null'] },
    status: { enum: [...PART_STATUSES] },
    fulfilledByStore: { type: 'boolean' },
    items: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'Ids of the order items in this part' },
    shipment: { type: ['object', 'null'] },
  },
  ['groupKey', 'connectionId', 'status', 'fulfilledByStore', 'items', 'shipment'],
);
const paymentEntrySchema = object(
  {
    kind: {
      enum: [
        'authorised',
        'paid',
        'failed',
        'refunded',
        'captured',
        'captureFailed',
        'disputed',
        'captureRequested',
        'attentionAcknowledged',
        'refundRequested',
        'refundFailed',
      ],
      description:
        "From the provider: `authorised`, `paid`, `captured` (an authorisation charged), `captureFailed`, `failed`, `refunded` (`amountMinor`: what this refund gave back, the whole payment or part of it), `disputed` (the shopper disputes the charge: the status stays, paymentAttention is set). From the service (promise to sell): `captureRequested` (recorded before the provider is asked; paid comes with the provider's signed `captured`) or `captureFailed` (the provider refused it in its answer). From a staff member: `paid` (marked by hand), `attentionAcknowledged` (the payment's attention cleared, with `note` and `attentionReason`), `refundRequested` (a refund asked of the provider, recorded before it is asked; `note`: its reason) and `refundFailed` (the provider refused it)",
    },
    source: {
      enum: ['provider', 'manual', 'service'],
      description:
        "`provider`: a signed payment provider notification; `manual`: a staff member; `service`: the service's capture request under promise to sell and the provider's answer to it",
    },
    amountMinor: { type: ['integer', 'null'] },
    reference: { type: ['string', 'null'] },
    actor: { type: ['object', 'null'], description: 'Who did it (manual only): a key or a user' },
    at: dateTime,
    stale: {
      type: 'boolean',
      description: "Present on a provider event that arrived after a later one (in the provider's own order) was applied: recorded, but it moved nothing",
    },
    note: { type: 'string', description: "An acknowledgement's note" },
    attentionReason: { enum: PAYMENT_ATTENTION_REASONS, description: 'The attention reason an acknowledgement cleared' },
    fee: object({ amountMinor: minorUnits, currency }, ['amountMinor', 'currency'], {
      description: "The payment provider's fee for this charge, when it reports one",
    }),
  },
  ['kind', 'source', 'amountMinor', 'reference', 'actor', 'at'],
);
const orderItemSchema = object(
  {
    id: uuid,
    productId: uuid,
    variantId: uuid,
    sku: { type: 'string' },
    title: { type: 'string', description: 'The variant\'s title as sold (for example "Teal / Small")' },
    productTitle: {
      type: ['string', 'null'],
      description: "The product's title as sold; null only for an item of an order made before titles were kept whose product was deleted since",
    },
    quantity: { type: 'integer', minimum: 1 },
    unitPriceMinor: minorUnits,
    groupKey: { type: 'string', description: 'The part the item belongs to' },
  },
  ['id', 'productId', 'variantId', 'sku', 'title', 'productTitle', 'quantity', 'unitPriceMinor', 'groupKey'],
);
/** One provider payment of the order (docs/decisions.md, "Payments as records (issue 53)"). */
const providerPaymentSchema = object(
  {
    reference: { type: 'string', description: "The provider's id of the payment (empty when its events named none)" },
    amountMinor: minorUnits,
    currency,
    status: { enum: ['authorised', 'paid', 'partiallyRefunded', 'refunded', 'failed'] },
    refundedMinor: { ...minorUnits, description: 'What the provider refunded of it' },
    version: { type: ['integer', 'null'], description: "The provider's version of the last change applied" },
    disputed: { type: 'boolean', description: 'The shopper disputed it' },
    updatedAt: dateTime,
  },
  ['reference', 'amountMinor', 'currency', 'status', 'refundedMinor', 'version', 'disputed', 'updatedAt'],
);
const summarySchema = object(
  { parts: { type: 'integer' }, shipped: { type: 'integer' }, delivered: { type: 'integer' }, needingAttention: { type: 'integer' } },
  ['parts', 'shipped', 'delivered', 'needingAttention'],
);
/** A store order as the routes answer it; its supplier orders are described by the reader that brings them. */
export const orderSchemaWith = (supplierOrder: JsonSchema, profit: JsonSchema) =>
  object(
    {
      id: uuid,
      storeId: uuid,
      number: { type: 'string' },
      status: { enum: [...STORE_ORDER_STATUSES] },
      paymentMethod: { enum: ['online', 'cashOnDelivery', 'manual'] },
      paymentStatus: {
        enum: ['none', 'authorised', 'paid', 'partiallyRefunded', 'failed', 'refunded'],
        description:
          "The shopper's payment as the payment provider reported it (signed notifications only), derived from its payments: that of the standing one, first of paid, partiallyRefunded, authorised, refunded, failed (none without payments)",
      },
      amountRefundedMinor: { ...minorUnits, description: 'What the provider refunded of the standing payment (order details only)' },
      providerPayments: {
        type: 'array',
        items: providerPaymentSchema,
        description: 'Each payment the provider reported for the order, oldest first (order details only)',
      },
      markedPaidAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description: "When a staff member marked the order paid by hand (not the provider's word)",
      },
      payments: { type: 'array', items: paymentEntrySchema, description: 'Payment history, oldest first (order details only)' },
      contractModel: { enum: ['standard', 'promiseToSell'] },
      currency,
      totalMinor: minorUnits,
      needsAttention: { type: 'boolean', description: 'A part needs attention (a supplier order paused or failed), or the payment does (paymentAttention)' },
      paymentAttention: {
        type: ['object', 'null'],
        description:
          "A person decides what happens to the order's payment: the provider took it back after it was paid (`paymentFailedAfterPaid`, `refundedAfterPaid`) or, under promise to sell, after the supplier was paid on its authorisation (`paymentFailedAfterSupplierPaid`, `refundedAfterSupplierPaid`), or refused the capture after a supplier part shipped (`captureRefusedAfterShipped`), or the shopper disputes the charge (`paymentDisputed`). Cleared by POST .../payment-attention/acknowledge",
        properties: { reason: { enum: PAYMENT_ATTENTION_REASONS }, since: dateTime },
        required: ['reason', 'since'],
        additionalProperties: false,
      },
      destination: destinationSchema,
      destinationRedacted: { type: 'boolean' },
      items: { type: 'array', items: orderItemSchema, description: "The order's items (order details only)" },
      fulfilmentGroups: { type: 'array', items: partSchema },
      fulfilmentSummary: summarySchema,
      supplierOrders: { type: 'array', items: supplierOrder, description: 'Only for a caller who also holds suppliers.view' },
      profit: {
        oneOf: [profit, { type: 'null' }],
        description:
          "What the order earned, in the store's currency (order details, for a caller who also holds suppliers.view): its supplier parts' (not cancelled) revenue and landed costs, less the payment provider's fees; null when it has no supplier order",
      },
      confirmedAt: { type: ['string', 'null'] },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    [
      'id',
      'storeId',
      'number',
      'status',
      'paymentMethod',
      'paymentStatus',
      'markedPaidAt',
      'contractModel',
      'currency',
      'totalMinor',
      'needsAttention',
      'paymentAttention',
      'destinationRedacted',
      'fulfilmentGroups',
      'fulfilmentSummary',
      'createdAt',
      'updatedAt',
    ],
  );
