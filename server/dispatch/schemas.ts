import { currency, dateTime, destinationSchema, minorUnits, nullableDateTime, object, uuid } from '../platform/http/schemas';
import { REVIEW_REASONS } from './review-reasons';
import { SUPPLIER_ORDER_STATUSES } from './state-machine';
import { DELIVERY_ATTENTION_REASONS, DELIVERY_EXCEPTIONS } from '../platform/vocabulary/delivery';

/** A supplier order's shipment as the supplier reported it (a reship's too), or null before it ships. */
export const SHIPMENT = {
  oneOf: [
    object({ carrier: { type: 'string' }, trackingNumber: { type: 'string' }, shippedAt: { type: ['string', 'null'] } }, [
      'carrier',
      'trackingNumber',
      'shippedAt',
    ]),
    { type: 'null' },
  ],
} as const;

const eventSchema = object(
  {
    at: dateTime,
    actor: object({ kind: { enum: ['key', 'user', 'system'] }, id: { type: ['string', 'null'] } }, ['kind', 'id']),
    type: {
      type: 'string',
      description:
        'created, paused, retry, payRequested, createdAtSupplier, foundAtSupplier, paid, alreadyPaidAtSupplier, failed, automaticRetry, readBack, packageReturned, cancelRequested, cancelled, landedCostChanged, ...',
    },
    from: { type: ['string', 'null'] },
    to: { type: ['string', 'null'] },
    details: { type: 'object', description: 'Choices such as payNow and acceptCost, and what the service saw' },
  },
  ['at', 'actor', 'type', 'from', 'to', 'details'],
);

const money = { type: ['integer', 'null'] } as const;
const stage = { enum: ['confirmation', 'accepted', 'paid'] } as const;

const landedCostSchema = object(
  {
    stage,
    currency,
    itemsMinor: minorUnits,
    shippingMinor: { ...minorUnits, type: ['integer', 'null'], description: 'Null when the supplier quotes no shipping before the order' },
    totalMinor: minorUnits,
    storeCurrency: currency,
    storeTotalMinor: minorUnits,
    rate: { type: 'string', description: "Units of the store's currency per unit of the supplier's, a decimal string" },
    rateSource: { enum: ['ecb', 'pinned', 'identity'] },
    rateAsOf: { type: 'string', format: 'date' },
    recordedAt: dateTime,
  },
  ['stage', 'currency', 'itemsMinor', 'shippingMinor', 'totalMinor', 'storeCurrency', 'storeTotalMinor', 'rate', 'rateSource', 'rateAsOf', 'recordedAt'],
);

/** A supplier credit (docs/decisions.md, "Supplier credits"): `counted` when it came off the part's landed cost. */
const supplierCreditSchema = object(
  {
    kind: { enum: ['claimRefund', 'cancelRefund'] },
    amountMinor: minorUnits,
    currency,
    storeAmountMinor: money,
    storeCurrency: currency,
    rate: { type: ['string', 'null'], description: "Units of the store's currency per unit of the supplier's, a decimal string; null when none was usable" },
    rateSource: { enum: ['ecb', 'pinned', 'identity', null] },
    rateAsOf: { type: ['string', 'null'], format: 'date' },
    counted: { type: 'boolean' },
    recordedAt: dateTime,
  },
  ['kind', 'amountMinor', 'currency', 'storeAmountMinor', 'storeCurrency', 'rate', 'rateSource', 'rateAsOf', 'counted', 'recordedAt'],
);

/** A profit in the store's currency: complete once the supplier accepted; `missing` names what is not known yet. */
export const profitSchema = object(
  {
    currency,
    revenueMinor: {
      ...money,
      description: "The items' prices (orders carry no shipping charge); on a store order, less what the provider refunded to the shopper (refundMinor)",
    },
    landedCostMinor: { ...money, description: "The latest landed cost recorded (paid, else accepted, else at confirmation), in the store's currency" },
    landedCostStage: { enum: ['confirmation', 'accepted', 'paid', null] },
    paymentFeeMinor: { ...money, description: "The payment provider's fee as it reported it; on a supplier order always null (the store order counts it)" },
    supplierCreditMinor: {
      type: 'integer',
      description: "What suppliers gave back (a claim refunded) in the store's currency at the recorded rate, already taken off landedCostMinor",
    },
    refundMinor: {
      type: 'integer',
      minimum: 0,
      description:
        "A store order's only: what the provider refunded to the shopper (whole or in part), already taken out of revenueMinor; the profit report's refundMinor",
    },
    refundedMinor: { type: 'integer', minimum: 0, description: 'The same as refundMinor (its first name)' },
    resultMinor: money,
    complete: { type: 'boolean' },
    missing: {
      type: 'array',
      items: { type: 'string' },
      description: 'acceptedCost, landedCost, shipping, revenueInStoreCurrency, paymentFeeInStoreCurrency, supplierOrders',
    },
  },
  ['currency', 'revenueMinor', 'landedCostMinor', 'landedCostStage', 'paymentFeeMinor', 'supplierCreditMinor', 'resultMinor', 'complete', 'missing'],
);

export const supplierOrderSchema = object(
  {
    _id: uuid,
    storeId: uuid,
    orderId: uuid,
    orderNumber: { type: 'string' },
    fulfilmentGroupKey: { type: 'string' },
    integrationId: uuid,
    supplierKey: { type: 'string' },
    contractModel: { enum: ['standard', 'promiseToSell'] },
    status: { enum: [...SUPPLIER_ORDER_STATUSES] },
    reviewReason: { enum: [...Object.keys(REVIEW_REASONS), null] },
    reviewMessage: { type: ['string', 'null'] },
    retryable: { type: 'boolean', description: 'Whether trying again with nothing changed may succeed; false when the order is not paused' },
    nextAction: {
      oneOf: [
        object({ action: { const: 'return' }, operationId: { type: 'string' }, method: { const: 'POST' }, path: { type: 'string' } }, [
          'action',
          'operationId',
          'method',
          'path',
        ]),
        { type: 'null' },
      ],
      description:
        'What a person does next, as a route: paused as supplierAlreadyShipped (a cancel after the supplier shipped), a return of its items (recordSupplierOrderReturn)',
    },
    supplierOrderNumber: { type: 'string' },
    supplierOrderId: { type: ['string', 'null'] },
    supplierStatus: { type: ['string', 'null'] },
    costs: {
      oneOf: [
        object({ itemsMinor: minorUnits, shippingMinor: minorUnits, totalMinor: minorUnits, currency }, [
          'itemsMinor',
          'shippingMinor',
          'totalMinor',
          'currency',
        ]),
        { type: 'null' },
      ],
    },
    payment: object({ status: { enum: ['notRequired', 'unpaid', 'paid', 'refunded'] } }, ['status']),
    shipping: SHIPMENT,
    deliveryAttention: {
      oneOf: [
        object({ reason: { enum: [...DELIVERY_ATTENTION_REASONS] }, since: dateTime, message: { type: 'string' } }, ['reason', 'since', 'message']),
        { type: 'null' },
      ],
      description:
        "A sent order whose delivery needs a look (the status stays): no tracking, no movement, overdue, or the supplier's exception; it clears when tracking moves, or when acknowledged",
    },
    tracking: {
      oneOf: [
        object(
          {
            events: {
              type: 'array',
              items: object(
                { at: dateTime, description: { type: 'string' }, location: { type: ['string', 'null'] }, exception: { enum: [...DELIVERY_EXCEPTIONS] } },
                ['at', 'description', 'location'],
              ),
            },
            lastScanAt: nullableDateTime,
            exception: { enum: [...DELIVERY_EXCEPTIONS, null] },
            promisedMaxDays: { type: ['integer', 'null'] },
          },
          ['events', 'lastScanAt', 'exception', 'promisedMaxDays'],
        ),
        { type: 'null' },
      ],
      description:
        "The carrier's latest scans as the supplier reports them (read back, oldest first), the parcel's exception, and the longest delivery the supplier promised",
    },
    reshipOf: {
      oneOf: [
        object({ claimId: uuid, supplierOrderId: uuid, supplierClaimId: { type: ['string', 'null'] } }, ['claimId', 'supplierOrderId', 'supplierClaimId']),
        { type: 'null' },
      ],
      description: 'A reship: the claim whose goods it replaces, and the supplier order claimed',
    },
    attempt: { type: 'integer', minimum: 1 },
    events: { type: 'array', items: eventSchema },
    landedCosts: {
      type: 'array',
      items: landedCostSchema,
      description:
        "The landed cost (items and the chosen shipping) recorded at confirmation, when the supplier accepted and when it was paid, each in the supplier's and the store's currency with its rate",
    },
    supplierCredits: {
      type: 'array',
      items: supplierCreditSchema,
      description: "What the supplier gave back on this order (a claim or a cancel refunded), in its currency and the store's at the recorded rate",
    },
    profit: { oneOf: [profitSchema, { type: 'null' }] },
    destination: destinationSchema,
    destinationRedacted: { type: 'boolean' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  [
    '_id',
    'storeId',
    'orderId',
    'orderNumber',
    'fulfilmentGroupKey',
    'integrationId',
    'supplierKey',
    'contractModel',
    'status',
    'reviewReason',
    'reviewMessage',
    'retryable',
    'nextAction',
    'supplierOrderNumber',
    'supplierOrderId',
    'supplierStatus',
    'costs',
    'payment',
    'shipping',
    'deliveryAttention',
    'tracking',
    'reshipOf',
    'attempt',
    'events',
    'landedCosts',
    'supplierCredits',
    'profit',
    'destinationRedacted',
    'createdAt',
    'updatedAt',
  ],
);
