import { currency, dateTime, destinationSchema, minorUnits, object, uuid } from '../platform/http/schemas';
import { REVIEW_REASONS } from './review-reasons';
import { SUPPLIER_ORDER_STATUSES } from './state-machine';

const eventSchema = object(
  {
    at: dateTime,
    actor: object({ kind: { enum: ['key', 'user', 'system'] }, id: { type: ['string', 'null'] } }, ['kind', 'id']),
    type: { type: 'string', description: 'created, paused, retry, payRequested, createdAtSupplier, foundAtSupplier, paid, alreadyPaidAtSupplier, failed, automaticRetry, readBack, packageReturned, cancelRequested, cancelled, ...' },
    from: { type: ['string', 'null'] },
    to: { type: ['string', 'null'] },
    details: { type: 'object', description: 'Choices such as payNow and acceptCost, and what the service saw' },
  },
  ['at', 'actor', 'type', 'from', 'to', 'details'],
);

export const supplierOrderSchema = object(
  {
    _id: uuid, storeId: uuid, orderId: uuid,
    orderNumber: { type: 'string' },
    fulfilmentGroupKey: { type: 'string' },
    integrationId: uuid,
    supplierKey: { type: 'string' },
    contractModel: { enum: ['standard', 'promiseToSell'] },
    status: { enum: [...SUPPLIER_ORDER_STATUSES] },
    reviewReason: { enum: [...Object.keys(REVIEW_REASONS), null] },
    reviewMessage: { type: ['string', 'null'] },
    retryable: { type: 'boolean', description: 'Whether trying again with nothing changed may succeed; false when the order is not paused' },
    supplierOrderNumber: { type: 'string' },
    supplierOrderId: { type: ['string', 'null'] },
    supplierStatus: { type: ['string', 'null'] },
    costs: { oneOf: [object({ itemsMinor: minorUnits, shippingMinor: minorUnits, totalMinor: minorUnits, currency }, ['itemsMinor', 'shippingMinor', 'totalMinor', 'currency']), { type: 'null' }] },
    payment: object({ status: { enum: ['notRequired', 'unpaid', 'paid', 'refunded'] } }, ['status']),
    shipping: { oneOf: [object({ carrier: { type: 'string' }, trackingNumber: { type: 'string' }, shippedAt: { type: ['string', 'null'] } }, ['carrier', 'trackingNumber', 'shippedAt']), { type: 'null' }] },
    attempt: { type: 'integer', minimum: 1 },
    events: { type: 'array', items: eventSchema },
    destination: destinationSchema,
    destinationRedacted: { type: 'boolean' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  ['_id', 'storeId', 'orderId', 'orderNumber', 'fulfilmentGroupKey', 'integrationId', 'supplierKey', 'contractModel', 'status', 'reviewReason', 'reviewMessage', 'retryable', 'supplierOrderNumber', 'supplierOrderId', 'supplierStatus', 'costs', 'payment', 'shipping', 'attempt', 'events', 'destinationRedacted', 'createdAt', 'updatedAt'],
);
