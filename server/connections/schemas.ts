import { currency, dateTime, minorUnits, nullableDateTime, object, uuid } from '../platform/http/schemas';
import { REROUTE_REASONS } from './types';
import { DELIVERY_EXCEPTIONS } from '../platform/vocabulary/delivery';

export const supplierKeySchema = { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } as const;

export const credentials = { type: 'object', description: 'The supplier\'s credentials, as its `credentialsSchema` in the catalogue describes (for example `{ "apiKey": "..." }`)' } as const;

export const impactSchema = object({ linkedProducts: { type: 'integer' }, openSupplierOrders: { type: 'integer' } }, ['linkedProducts', 'openSupplierOrders']);

export const disconnectedSchema = object(
  {
    id: uuid,
    disconnected: { const: true },
    impact: { type: 'object', description: 'What the connection had when it was disconnected, as GET .../impact counts it' },
    removedLinks: { type: 'integer', description: 'Product links removed with the connection; their products stay as the store\'s own, unlinked' },
  },
  ['id', 'disconnected', 'impact', 'removedLinks'],
);

export const modeSchema = { enum: ['test', 'live'], description: '`test` places orders in the supplier\'s test environment (where it has one)' } as const;

export const automationFields = {
  level: { enum: ['off', 'manual', 'automatic'], description: '`automatic` sends a supplier part once the store order is confirmed; `manual` waits for submit; `off` never sends' },
  automaticPayment: { type: 'boolean', description: 'Pay the supplier from the balance once the order is created (only when the shopper has paid, unless unpaid orders are allowed)' },
  costLimit: {
    oneOf: [object({ amountMinor: minorUnits, currency }, ['amountMinor', 'currency']), { type: 'null' }],
    description: 'Orders costing more than this pause with costAboveLimit',
  },
  excludedCountries: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z]{2}$' }, maxItems: 250, uniqueItems: true, description: 'ISO 3166-1 alpha-2 codes; orders to them pause with destinationUnsupported' },
  allowUnpaidOrders: { type: 'boolean', description: 'Send (and pay) orders whose shopper has not paid online, such as cash on delivery' },
  shippingMethod: {
    oneOf: [
      object({ rule: { enum: ['cheapest', 'fastest'] } }, ['rule']),
      object({ rule: { const: 'named' }, service: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[\\x20-\\x7e]+$', description: "The supplier's name of the service, as its freight quote names it (for example CAINIAO_STANDARD)" } }, ['rule', 'service']),
    ],
    description:
      "Which of the supplier's shipping services an order takes, for suppliers that quote several per order (CJ, AliExpress, Printful): the cheapest (the default), the fastest (the shortest longest-delivery time quoted), or one named service; an order the rule finds no service for pauses with destinationUnsupported. The sandbox supplier has one service and ignores it.",
  },
  reroute: object(
    {
      reasons: { type: 'array', items: { enum: [...REROUTE_REASONS] }, uniqueItems: true, description: 'The review reasons that send a paused part to its backup suppliers; insufficientBalance and supplierRefused are opt-in' },
      maxCostIncreasePercent: { type: 'integer', minimum: 0, maximum: 1000, description: "How much dearer than the primary's cost an alternate may be, in percent (never above the alternate connection's costLimit)" },
    },
    ['reasons', 'maxCostIncreasePercent'],
    { description: 'Rerouting to backup suppliers (the alternates of a product link): the default reroutes on variantUnavailable, destinationUnsupported and costAboveLimit, at most 10% dearer' },
  ),
  deliveryWatch: object(
    {
      noTrackingDays: { type: 'integer', minimum: 1, maximum: 90, description: 'Attention when there is no tracking this many days after the supplier was paid (default 7)' },
      noMovementHours: { type: 'integer', minimum: 1, maximum: 2160, description: 'Attention when the carrier has not scanned the parcel for this many hours (default 72)' },
      overdueGraceDays: { type: 'integer', minimum: 0, maximum: 90, description: "Attention when not delivered this many days past the supplier's promised maximum (default 3)" },
      exceptions: { type: 'array', items: { enum: [...DELIVERY_EXCEPTIONS] }, uniqueItems: true, description: "The supplier's delivery exceptions that raise attention (default all three)" },
    },
    ['noTrackingDays', 'noMovementHours', 'overdueGraceDays', 'exceptions'],
    { description: 'The delivery watch of sent orders: it raises a delivery attention (the status stays) on these thresholds and exceptions; tracking that moves clears it' },
  ),
} as const;

/** A routing rule, as the store sets it and a product link overrides it (docs/decisions.md, "Routing rule"). */
export const routingRuleSchema = {
  oneOf: [
    object({ rule: { enum: ['primary', 'lowestLandedCost'] } }, ['rule']),
    object(
      { rule: { const: 'fastest' }, maxCostAboveCheapestPercent: { type: 'integer', minimum: 0, maximum: 1000, description: 'How much dearer than the cheapest candidate the fastest may be, in percent' } },
      ['rule', 'maxCostAboveCheapestPercent'],
    ),
  ],
  description:
    "How a part's supplier is chosen among its product link's primary and alternates: `primary` (the default: the link's own supplier, backups only by rerouting), `lowestLandedCost` (items plus shipping to the destination, in the store's currency), or `fastest` within `maxCostAboveCheapestPercent` of the cheapest",
} as const;

export const storeRoutingSchema = object(
  { routing: routingRuleSchema, updatedAt: { ...nullableDateTime, description: 'When the store set its rule; null: never (the default, primary)' } },
  ['routing', 'updatedAt'],
);

const automationSchema = object(automationFields, ['level', 'automaticPayment', 'costLimit', 'excludedCountries', 'allowUnpaidOrders', 'shippingMethod', 'reroute', 'deliveryWatch']);

const healthSchema = {
  oneOf: [
    object({ status: { enum: ['healthy', 'unhealthy'] }, checkedAt: dateTime, latencyMs: { type: 'integer' }, message: { type: 'string' } }, ['status', 'checkedAt', 'latencyMs', 'message']),
    { type: 'null' },
  ],
} as const;

export const connectionSchema = object(
  {
    id: uuid,
    storeId: uuid,
    supplierKey: { type: 'string' },
    mode: modeSchema,
    enabled: { type: 'boolean' },
    hasCredentials: { type: 'boolean' },
    accountLabel: { type: 'string', description: 'The supplier account the credentials belong to' },
    settings: { type: 'object', description: 'The supplier\'s own settings; see `settingsSchema` in the catalogue' },
    automation: automationSchema,
    health: healthSchema,
    isCircuitOpen: { type: 'boolean' },
    circuitOpenUntil: nullableDateTime,
    lastWebhookAt: nullableDateTime,
    webhookUrl: { type: 'string', description: 'Where the supplier sends notifications; empty when no public address is configured' },
    sharedSupplierAccount: { type: 'boolean', description: 'Another live connection (of any store) is on the same supplier account; notifications reach each connection for its own orders and products' },
    createdByKeyId: { type: ['string', 'null'], format: 'uuid' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  ['id', 'storeId', 'supplierKey', 'mode', 'enabled', 'hasCredentials', 'accountLabel', 'settings', 'automation', 'health', 'isCircuitOpen', 'circuitOpenUntil', 'lastWebhookAt', 'webhookUrl', 'sharedSupplierAccount', 'createdByKeyId', 'createdAt', 'updatedAt'],
);

export const catalogueEntrySchema = object(
  {
    key: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    available: { type: 'boolean', description: 'false when the operator of this service switched the supplier off' },
    capabilities: object(
      {
        authKind: { enum: ['apiKey', 'signIn'] },
        hasSandbox: { type: 'boolean' },
        balance: { type: 'boolean' },
        cancel: { type: 'boolean' },
        notifications: { type: 'boolean' },
        payment: { enum: ['balance', 'atCreate', 'external'], description: '`balance`: paid from a balance at the supplier (pay); `atCreate`: paid only as the order is created, with automatic payment on; `external`: not through the API' },
        syncFields: { type: 'array', items: { enum: ['cost', 'price', 'stock', 'title', 'availability'] } },
        claims: object(
          { via: { enum: ['api', 'person'] }, deadlineDays: { type: ['integer', 'null'] }, counted: { enum: ['fromShipping', 'fromClaim'] }, where: { type: 'string' } },
          ['via', 'deadlineDays', 'counted', 'where'],
          { description: '`api`: the service sends claims and follows them; `person`: a person sends them where `where` says, within `deadlineDays` of shipping' },
        ),
      },
      ['authKind', 'hasSandbox', 'balance', 'cancel', 'notifications', 'payment', 'syncFields', 'claims'],
    ),
    settingsSchema: { type: 'object' },
    defaultSettings: { type: 'object' },
    credentialsSchema: { type: 'object' },
  },
  ['key', 'name', 'description', 'available', 'capabilities', 'settingsSchema', 'defaultSettings', 'credentialsSchema'],
);

export const moneySchema = object({ amountMinor: { type: 'integer' }, currency }, ['amountMinor', 'currency']);
