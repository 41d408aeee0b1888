import { CLAIM_EXPECTATIONS, CLAIM_REASONS, CLAIM_STATUSES } from '../../platform/vocabulary/claims';
import { currency, dateTime, minorUnits, nullableDateTime, object, supplierRef, uuid } from '../../platform/http/schemas';
import { SHIPMENT } from '../schemas';

const money = object({ amountMinor: minorUnits, currency }, ['amountMinor', 'currency']);
const actor = object({ kind: { enum: ['key', 'user', 'system', 'supplier'] }, id: { type: ['string', 'null'] } }, ['kind', 'id']);
const storeAmount = object(
  {
    amountMinor: minorUnits,
    currency,
    rate: { type: 'string', description: "Units of the store's currency per unit of the supplier's, a decimal string" },
    rateSource: { type: 'string' },
    rateAsOf: { type: 'string', format: 'date' },
  },
  ['amountMinor', 'currency', 'rate', 'rateSource', 'rateAsOf'],
);
const nullable = (s: object) => ({ oneOf: [s, { type: 'null' }] });
const when = { at: dateTime, by: actor };

export const claimOutcomeSchema = {
  oneOf: [
    object({ kind: { const: 'refunded' }, amount: money, storeAmount: nullable(storeAmount), rateMissing: { type: 'string' }, ...when }, [
      'kind',
      'amount',
      'storeAmount',
      'at',
      'by',
    ]),
    object(
      {
        kind: { const: 'reshipped' },
        supplierOrderId: {
          ...nullable(uuid),
          description: 'The reship: a new supplier order for the claimed items (null: the supplier reships under its own order, or it is held)',
        },
        supplierSideOrderId: { type: ['string', 'null'] },
        held: { type: 'string' },
        ...when,
      },
      ['kind', 'supplierOrderId', 'supplierSideOrderId', 'at', 'by'],
    ),
    object({ kind: { const: 'rejected' }, message: { type: 'string', description: "The supplier's words" }, ...when }, ['kind', 'message', 'at', 'by']),
    object({ kind: { const: 'cancelled' }, ...when }, ['kind', 'at', 'by']),
    object({ kind: { const: 'stopped' }, message: { type: 'string' }, ...when }, ['kind', 'message', 'at', 'by']),
    { type: 'null' },
  ],
  description:
    "The claim's outcome once it has one: a refund (the supplier's amount, and the store's at the recorded rate), a reship, a rejection with the supplier's words, withdrawn, or stopped (its creator may no longer manage claims)",
} as const;

const evidencePackSchema = object(
  {
    where: { type: 'string' },
    deadline: nullableDateTime,
    supplierOrderId: { type: ['string', 'null'] },
    supplierOrderNumber: { type: 'string' },
    tracking: SHIPMENT,
    items: {
      type: 'array',
      items: object({ sku: { type: 'string' }, supplierVariantId: { type: 'string' }, quantity: { type: 'integer' } }, [
        'sku',
        'supplierVariantId',
        'quantity',
      ]),
    },
    text: { type: 'string', description: 'Ready to paste at the supplier' },
  },
  ['where', 'deadline', 'supplierOrderId', 'supplierOrderNumber', 'tracking', 'items', 'text'],
);

export const claimSchema = object(
  {
    _id: { ...uuid, description: 'Also the key it is sent to the supplier under (CJ: businessDisputeId)' },
    storeId: uuid,
    supplierOrderId: uuid,
    orderId: uuid,
    integrationId: uuid,
    supplierKey: { type: 'string' },
    via: {
      enum: ['api', 'person'],
      description:
        '`api`: the service sends it once and follows it until the supplier decides; `person`: a person sends it (evidencePack) and records the outcome',
    },
    reason: { enum: [...CLAIM_REASONS] },
    expectation: { enum: [...CLAIM_EXPECTATIONS] },
    items: {
      type: 'array',
      items: object({ itemId: uuid, sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } }, ['itemId', 'sku', 'quantity']),
    },
    message: { type: 'string' },
    evidence: { type: 'array', items: { type: 'string' } },
    status: { enum: [...CLAIM_STATUSES] },
    supplierClaimId: { type: ['string', 'null'] },
    supplierStatus: { type: ['string', 'null'] },
    deadline: { ...nullableDateTime, description: "A person's claim: by when the supplier takes it (for a supplier that escalates: when it may be escalated)" },
    outcome: claimOutcomeSchema,
    cancelRequested: { type: 'boolean' },
    evidencePack: nullable(evidencePackSchema),
    createdBy: actor,
    createdAt: dateTime,
    updatedAt: dateTime,
    closedAt: nullableDateTime,
  },
  [
    '_id',
    'storeId',
    'supplierOrderId',
    'orderId',
    'integrationId',
    'supplierKey',
    'via',
    'reason',
    'expectation',
    'items',
    'message',
    'evidence',
    'status',
    'supplierClaimId',
    'supplierStatus',
    'deadline',
    'outcome',
    'cancelRequested',
    'evidencePack',
    'createdBy',
    'createdAt',
    'updatedAt',
    'closedAt',
  ],
);

export const openClaimBody = object(
  {
    reason: { enum: [...CLAIM_REASONS] },
    expectation: { enum: [...CLAIM_EXPECTATIONS], description: 'What the store asks the supplier for' },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: object({ itemId: uuid, quantity: { type: 'integer', minimum: 1, maximum: 100000 } }, ['itemId', 'quantity']),
      description: "The store order's items (of this supplier order's part) and how many of each",
    },
    message: { type: 'string', maxLength: 500, description: 'To the supplier (CJ takes 500 characters)' },
    evidence: {
      type: 'array',
      maxItems: 10,
      items: { type: 'string', maxLength: 1000, pattern: '^https://[^\\s/@]+(/\\S*)?$' },
      description: 'https addresses of photos or videos the supplier can open',
    },
  },
  ['reason', 'expectation', 'items'],
);

/** One object for every outcome (clients and the node read one shape): `amount` goes with refunded, `message` with rejected (422 otherwise). */
export const outcomeBody = object(
  {
    outcome: { enum: ['refunded', 'reshipped', 'rejected'] },
    amount: { ...money, description: 'refunded: what the supplier refunded, in its currency' },
    supplierOrderId: { ...supplierRef, description: "reshipped: the supplier's own order that carries the reship, if it names one" },
    message: { type: 'string', minLength: 1, maxLength: 2000, description: "rejected: the supplier's words" },
  },
  ['outcome'],
);
