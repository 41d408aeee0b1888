import { currency, dateTime, nullableDateTime, object, uuid } from '../platform/http/schemas';
import { automationSchema } from './automation-schemas';

// The connection's automation has its own module (./automation-schemas.ts); its routes take its fields from here.
export { automationFields } from './automation-schemas';

export const supplierKeySchema = { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } as const;

export const credentials = {
  type: 'object',
  description: 'The supplier\'s credentials, as its `credentialsSchema` in the catalogue describes (for example `{ "apiKey": "..." }`)',
} as const;

export const impactSchema = object({ linkedProducts: { type: 'integer' }, openSupplierOrders: { type: 'integer' } }, ['linkedProducts', 'openSupplierOrders']);

export const disconnectedSchema = object(
  {
    id: uuid,
    disconnected: { const: true },
    impact: { type: 'object', description: 'What the connection had when it was disconnected, as GET .../impact counts it' },
    removedLinks: { type: 'integer', description: "Product links removed with the connection; their products stay as the store's own, unlinked" },
  },
  ['id', 'disconnected', 'impact', 'removedLinks'],
);

export const modeSchema = { enum: ['test', 'live'], description: "`test` places orders in the supplier's test environment (where it has one)" } as const;

/** A routing rule, as the store sets it and a product link overrides it (docs/decisions.md, "Routing rule"). */
export const routingRuleSchema = {
  oneOf: [
    object({ rule: { enum: ['primary', 'lowestLandedCost'] } }, ['rule']),
    object(
      {
        rule: { const: 'fastest' },
        maxCostAboveCheapestPercent: {
          type: 'integer',
          minimum: 0,
          maximum: 1000,
          description: 'How much dearer than the cheapest candidate the fastest may be, in percent',
        },
      },
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

const healthSchema = {
  oneOf: [
    object({ status: { enum: ['healthy', 'unhealthy'] }, checkedAt: dateTime, latencyMs: { type: 'integer' }, message: { type: 'string' } }, [
      'status',
      'checkedAt',
      'latencyMs',
      'message',
    ]),
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
    settings: { type: 'object', description: "The supplier's own settings; see `settingsSchema` in the catalogue" },
    automation: automationSchema,
    health: healthSchema,
    isCircuitOpen: { type: 'boolean' },
    circuitOpenUntil: nullableDateTime,
    lastWebhookAt: nullableDateTime,
    webhookUrl: { type: 'string', description: 'Where the supplier sends notifications; empty when no public address is configured' },
    sharedSupplierAccount: {
      type: 'boolean',
      description:
        'Another live connection (of any store) is on the same supplier account; notifications reach each connection for its own orders and products',
    },
    createdByKeyId: { type: ['string', 'null'], format: 'uuid' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  [
    'id',
    'storeId',
    'supplierKey',
    'mode',
    'enabled',
    'hasCredentials',
    'accountLabel',
    'settings',
    'automation',
    'health',
    'isCircuitOpen',
    'circuitOpenUntil',
    'lastWebhookAt',
    'webhookUrl',
    'sharedSupplierAccount',
    'createdByKeyId',
    'createdAt',
    'updatedAt',
  ],
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
        payment: {
          enum: ['balance', 'atCreate', 'external'],
          description:
            '`balance`: paid from a balance at the supplier (pay); `atCreate`: paid only as the order is created, with automatic payment on; `external`: not through the API',
        },
        syncFields: { type: 'array', items: { enum: ['cost', 'price', 'stock', 'title', 'availability'] } },
        claims: object(
          {
            via: { enum: ['api', 'person'] },
            deadlineDays: { type: ['integer', 'null'] },
            counted: { enum: ['fromShipping', 'fromClaim'] },
            where: { type: 'string' },
          },
          ['via', 'deadlineDays', 'counted', 'where'],
          {
            description:
              '`api`: the service sends claims and follows them; `person`: a person sends them where `where` says, within `deadlineDays` of shipping',
          },
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
