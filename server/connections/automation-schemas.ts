import { currency, minorUnits, object } from '../platform/http/schemas';
import { REROUTE_REASONS } from './types';
import { DELIVERY_EXCEPTIONS } from '../platform/vocabulary/delivery';

/** A connection's automation: when its parts are sent and paid, its limits, its shipping, rerouting and delivery watch. */
export const automationFields = {
  level: {
    enum: ['off', 'manual', 'automatic'],
    description: '`automatic` sends a supplier part once the store order is confirmed; `manual` waits for submit; `off` never sends',
  },
  automaticPayment: {
    type: 'boolean',
    description: 'Pay the supplier from the balance once the order is created (only when the shopper has paid, unless unpaid orders are allowed)',
  },
  costLimit: {
    oneOf: [object({ amountMinor: minorUnits, currency }, ['amountMinor', 'currency']), { type: 'null' }],
    description: 'Orders costing more than this pause with costAboveLimit',
  },
  excludedCountries: {
    type: 'array',
    items: { type: 'string', pattern: '^[A-Za-z]{2}$' },
    maxItems: 250,
    uniqueItems: true,
    description: 'ISO 3166-1 alpha-2 codes; orders to them pause with destinationUnsupported',
  },
  allowUnpaidOrders: { type: 'boolean', description: 'Send (and pay) orders whose shopper has not paid online, such as cash on delivery' },
  shippingMethod: {
    oneOf: [
      object({ rule: { enum: ['cheapest', 'fastest'] } }, ['rule']),
      object(
        {
          rule: { const: 'named' },
          service: {
            type: 'string',
            minLength: 1,
            maxLength: 100,
            pattern: '^[\\x20-\\x7e]+$',
            description: "The supplier's name of the service, as its freight quote names it (for example CAINIAO_STANDARD)",
          },
        },
        ['rule', 'service'],
      ),
    ],
    description:
      "Which of the supplier's shipping services an order takes, for suppliers that quote several per order (CJ, AliExpress, Printful): the cheapest (the default), the fastest (the shortest longest-delivery time quoted), or one named service; an order the rule finds no service for pauses with destinationUnsupported. The sandbox supplier has one service and ignores it.",
  },
  reroute: object(
    {
      reasons: {
        type: 'array',
        items: { enum: [...REROUTE_REASONS] },
        uniqueItems: true,
        description: 'The review reasons that send a paused part to its backup suppliers; insufficientBalance and supplierRefused are opt-in',
      },
      maxCostIncreasePercent: {
        type: 'integer',
        minimum: 0,
        maximum: 1000,
        description: "How much dearer than the primary's cost an alternate may be, in percent (never above the alternate connection's costLimit)",
      },
    },
    ['reasons', 'maxCostIncreasePercent'],
    {
      description:
        'Rerouting to backup suppliers (the alternates of a product link): the default reroutes on variantUnavailable, destinationUnsupported and costAboveLimit, at most 10% dearer',
    },
  ),
  deliveryWatch: object(
    {
      noTrackingDays: {
        type: 'integer',
        minimum: 1,
        maximum: 90,
        description: 'Attention when there is no tracking this many days after the supplier was paid (default 7)',
      },
      noMovementHours: {
        type: 'integer',
        minimum: 1,
        maximum: 2160,
        description: 'Attention when the carrier has not scanned the parcel for this many hours (default 72)',
      },
      overdueGraceDays: {
        type: 'integer',
        minimum: 0,
        maximum: 90,
        description: "Attention when not delivered this many days past the supplier's promised maximum (default 3)",
      },
      exceptions: {
        type: 'array',
        items: { enum: [...DELIVERY_EXCEPTIONS] },
        uniqueItems: true,
        description: "The supplier's delivery exceptions that raise attention (default all three)",
      },
    },
    ['noTrackingDays', 'noMovementHours', 'overdueGraceDays', 'exceptions'],
    {
      description:
        'The delivery watch of sent orders: it raises a delivery attention (the status stays) on these thresholds and exceptions; tracking that moves clears it',
    },
  ),
} as const;

export const automationSchema = object(automationFields, [
  'level',
  'automaticPayment',
  'costLimit',
  'excludedCountries',
  'allowUnpaidOrders',
  'shippingMethod',
  'reroute',
  'deliveryWatch',
]);
